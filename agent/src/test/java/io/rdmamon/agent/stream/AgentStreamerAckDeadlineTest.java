package io.rdmamon.agent.stream;

import io.rdmamon.agent.host.Fixtures;
import io.rdmamon.agent.host.HostReader;
import io.rdmamon.protocol.model.HostSample;
import io.rdmamon.protocol.wire.Frame;
import io.rdmamon.protocol.wire.FrameCodec;
import io.rdmamon.protocol.wire.FrameException;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServer;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import java.util.stream.LongStream;

import static io.rdmamon.protocol.testing.Waits.await;
import static io.rdmamon.protocol.testing.Waits.waitFor;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Issue 23 item 5: a replica that is stopped (SIGSTOP) keeps the agent's connection open and acknowledges nothing.
 * Two bare WebSocket endpoints play the replicas: the first takes the hello and the samples and never acknowledges,
 * the second acknowledges every sample. Before the acknowledgement deadline the agent stayed on the first for good.
 */
@ExtendWith(VertxExtension.class)
class AgentStreamerAckDeadlineTest {
    private static final Duration ACK_TIMEOUT = Duration.ofSeconds(1);
    /** Generous for a loaded 2-core machine: the agent must move after 1 s, the wait only bounds a hang. */
    private static final Duration MOVE_LIMIT = Duration.ofSeconds(30);
    private final FrameCodec codec = new FrameCodec();
    private final Replica hung = new Replica(false);
    private final Replica healthy = new Replica(true);
    private Vertx vertx;
    private HostSample sample;
    private AgentStreamer streamer;

    /** A replica's side of the wire: what it received; it acknowledges every sample if {@code acks}. */
    private final class Replica {
        final boolean acks;
        final AtomicInteger hellos = new AtomicInteger();
        final Set<Long> samples = new ConcurrentSkipListSet<>();
        final List<Short> closeCodes = new CopyOnWriteArrayList<>();
        HttpServer server;

        Replica(boolean acks) {
            this.acks = acks;
        }

        void listen() throws Exception {
            server = await(vertx.createHttpServer().webSocketHandler(ws -> {
                ws.closeHandler(v -> closeCodes.add(ws.closeStatusCode()));
                ws.binaryMessageHandler(message -> {
                    Frame frame = decode(message);
                    if (frame instanceof Frame.Hello) {
                        hellos.incrementAndGet();
                    } else if (frame instanceof Frame.Values values) {
                        samples.add(values.seq());
                        if (acks) {
                            ws.writeBinaryMessage(Buffer.buffer(codec.encode(new Frame.Ack(values.seq()))));
                        }
                    }
                });
            }).listen(0, "127.0.0.1"));
        }

        String url() {
            return "http://127.0.0.1:" + server.actualPort();
        }
    }

    @BeforeEach
    void start(Vertx vertx) throws Exception {
        sample = HostReader.forRoot(Fixtures.root("mlx5-roce")).read("node-a");
        this.vertx = vertx;
        hung.listen();
        healthy.listen();
        streamer = new AgentStreamer(AgentStreamerOptions.of(hung.url() + "," + healthy.url(), "node-a")
                .withAckTimeout(ACK_TIMEOUT).withBackoff(Duration.ofMillis(50), Duration.ofMillis(100)));
        await(vertx.deployVerticle(streamer));
    }

    @Test
    void anAgentLeavesAReplicaThatStopsAcknowledgingAndReplaysItsSamplesOnTheNext() throws Exception {
        waitFor(() -> streamer.stats().connected(), "the connection to the first replica");
        offer(5); // the hello goes with the first sample
        waitFor(() -> hung.samples.size() == 5, "5 samples on the replica that does not acknowledge");

        waitFor(() -> healthy.samples.containsAll(seqs(1, 5)), "the 5 unacknowledged samples replayed on the second replica",
                MOVE_LIMIT);
        waitFor(() -> streamer.stats().acknowledgedSeq() == 5, "their acknowledgements");
        assertEquals(List.of(AgentStreamer.GOING_AWAY), waitForClose(hung), "the agent closed the hung connection");
        AgentStreamer.Stats moved = streamer.stats();
        assertEquals(1, moved.failovers());
        assertEquals(0, moved.buffered(), "nothing left unacknowledged");
        assertEquals(0, moved.dropped(), "nothing lost");

        // the acknowledging replica keeps the agent past several deadlines: every ack restarts the clock. The sleeps
        // are the scenario: 8 samples half a deadline apart keep the connection busy for four deadlines
        for (int i = 0; i < 8; i++) {
            offer(1);
            Thread.sleep(ACK_TIMEOUT.toMillis() / 2);
        }
        waitFor(() -> streamer.stats().acknowledgedSeq() == 13, "the later samples acknowledged");
        assertEquals(2, streamer.stats().connects(), "still on the second replica");
        assertEquals(1, healthy.hellos.get());
        assertEquals(1, hung.hellos.get());
    }

    private void offer(int count) {
        for (int i = 0; i < count; i++) {
            streamer.offer(sample);
        }
    }

    private static Set<Long> seqs(long from, long to) {
        return LongStream.rangeClosed(from, to).boxed().collect(Collectors.toSet());
    }

    private static List<Short> waitForClose(Replica replica) throws InterruptedException {
        // the hung side answers no close handshake in real life; this one does, so its close handler runs
        waitFor(() -> !replica.closeCodes.isEmpty(), "the agent's close on " + replica.url());
        return replica.closeCodes;
    }

    private Frame decode(Buffer message) {
        try {
            return codec.decode(message.getBytes());
        } catch (FrameException e) {
            throw new AssertionError("the agent sent a bad frame", e);
        }
    }
}
