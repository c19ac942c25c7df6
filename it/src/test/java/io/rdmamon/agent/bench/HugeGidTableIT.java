package io.rdmamon.agent.bench;

import io.rdmamon.protocol.testing.Slow;
import io.rdmamon.agent.host.HostReader;
import io.rdmamon.collector.Collector;
import io.rdmamon.collector.CollectorConfig;
import io.rdmamon.protocol.model.GidEntry;
import io.rdmamon.protocol.model.HostSample;
import io.rdmamon.protocol.model.IbPort;
import io.rdmamon.protocol.testing.Waits;
import io.rdmamon.protocol.wire.WireFormat;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.WebSocket;
import io.vertx.core.http.WebSocketClientOptions;
import io.vertx.core.http.WebSocketConnectOptions;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 23 item 8: a port whose GID table lists 100,000 entries (a broken driver, a forged host root) made the hello
 * larger than the collector's 4 MiB frame limit; the collector closed it with 1009 on every retry and the node stayed
 * hidden. The agent now reads and sends the first {@link GidEntry#MAX_PER_PORT} non-empty entries and counts the rest
 * ({@link IbPort#gidsDropped()}): the hello fits, a collector (in this process, default limits) registers the node
 * and stores its samples, and the node's layout says the table was truncated.
 */
@ExtendWith(VertxExtension.class)
@Slow
class HugeGidTableIT {
    private static final int GIDS = 100_000;

    @Test
    void aHundredThousandGidEntriesAreCutToTheBoundAndTheNodeIsRegistered(Vertx vertx) throws Exception {
        Path work = Files.createTempDirectory("rdmamon-gids");
        try {
            Path root = EightPortHost.build(work);
            Path port = root.resolve("sys/class/infiniband/mlx5_0/ports/1");
            Path gids = port.resolve("gids");
            int before;
            try (var listing = Files.list(gids)) {
                before = (int) listing.count();
            }
            // an IPv4-mapped RoCE GID per entry: non-empty, as a forged table would be (written in parallel: 100,000
            // small files take a minute one by one)
            java.util.stream.IntStream.range(before, GIDS).parallel().forEach(i -> {
                try {
                    Files.writeString(gids.resolve(Integer.toString(i)), String.format(
                            "0000:0000:0000:0000:0000:ffff:0a%02x:%04x%n", (i >> 16) & 0xff, i & 0xffff));
                } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            });
            HostSample sample = HostReader.forRoot(root).read("gid-node");
            IbPort read = sample.devices().get(0).ports().get(0);
            assertEquals(GidEntry.MAX_PER_PORT, read.gids().size());
            assertEquals(0, read.gids().get(0).index(), "the first entries by index are kept");
            assertTrue(read.gidsDropped() > 0 && read.gidsDropped() <= GIDS - GidEntry.MAX_PER_PORT,
                    "entries left out: " + read.gidsDropped());
            assertEquals(0, sample.devices().get(1).ports().get(0).gidsDropped(), "a real table is sent whole");

            CollectorIngestBench.FrameFeed feed = new CollectorIngestBench.FrameFeed(sample);
            Buffer hello = feed.hello("gid-node");
            assertTrue(hello.length() < WireFormat.DEFAULT_MAX_FRAME_BYTES, "hello of " + hello.length() + " bytes");

            Collector.Running collector = Collector.start(vertx, CollectorConfig.load(null, Map.of())
                    .withListen("127.0.0.1:0")).toCompletionStage().toCompletableFuture().get();
            AtomicLong acks = new AtomicLong();
            AtomicReference<String> closed = new AtomicReference<>();
            WebSocket ws = vertx.createWebSocketClient(new WebSocketClientOptions()
                            .setMaxMessageSize(WireFormat.DEFAULT_MAX_FRAME_BYTES))
                    .connect(new WebSocketConnectOptions().setHost("127.0.0.1").setPort(collector.port())
                            .setURI(WireFormat.STREAM_PATH)).toCompletionStage().toCompletableFuture().get();
            ws.binaryMessageHandler(b -> acks.incrementAndGet());
            ws.closeHandler(v -> closed.set(ws.closeStatusCode() + " " + ws.closeReason()));
            ws.writeBinaryMessage(hello);
            ws.writeBinaryMessage(feed.values(0, 1));
            Waits.pollUntil(acks::get, n -> n > 0 || closed.get() != null, Duration.ofSeconds(20), Duration.ofMillis(100));
            assertNull(closed.get(), "the collector closed the stream");
            assertEquals(1, acks.get(), "the sample is acknowledged");
            HostSample stored = collector.store().node("gid-node").orElseThrow().lastSample();
            IbPort storedPort = stored.devices().get(0).ports().get(0);
            assertEquals(read.gidsDropped(), storedPort.gidsDropped(), "the collector knows the table was truncated");
            assertEquals(GidEntry.MAX_PER_PORT, storedPort.gids().size());
        } finally {
            EightPortHost.deleteTree(work);
        }
    }
}
