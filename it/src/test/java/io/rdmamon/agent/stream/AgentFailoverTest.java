package io.rdmamon.agent.stream;

import io.rdmamon.protocol.testing.LoopbackPorts;
import io.rdmamon.agent.daemon.AgentDaemon;
import io.rdmamon.agent.daemon.AgentDaemonOptions;
import io.rdmamon.collector.Collector;
import io.rdmamon.collector.CollectorConfig;
import io.rdmamon.collector.store.RatePoint;
import io.vertx.core.Vertx;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.Duration;
import java.util.List;

import static io.rdmamon.protocol.testing.Waits.await;
import static io.rdmamon.protocol.testing.Waits.waitFor;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * An agent given several collector URLs (replicas of a cluster; here lone collectors, which speak the same close
 * codes): it fails over in order, moves at once when a collector shuts down (close 1012), and replays what the
 * collector it left did not acknowledge, so the next one's history has no gap.
 */
@ExtendWith(VertxExtension.class)
class AgentFailoverTest {
    private Vertx vertx;
    private final RecordingSampler sampler = new RecordingSampler();

    /** The extension's Vert.x, closed by it after each test (collectors and agents with it). */
    @BeforeEach
    void start(Vertx vertx) {
        this.vertx = vertx;
    }

    private Collector.Running collector(int port) throws Exception {
        return await(Collector.start(vertx, CollectorConfig.defaults().withListen("127.0.0.1:" + port)));
    }

    /** An agent sampling every 100 ms with the given URLs and backoff window. */
    private AgentStreamer deploy(String urls, Duration backoffBase, Duration backoffCap) throws Exception {
        Duration interval = Duration.ofMillis(100);
        AgentDaemon daemon = new AgentDaemon(AgentDaemonOptions.of("node-f", interval, sampler)
                .withStreamer(AgentStreamerOptions.of(urls, "node-f").withInterval(interval).withBufferCapacity(600)
                        .withBackoff(backoffBase, backoffCap)));
        await(vertx.deployVerticle(daemon));
        return daemon.streamer();
    }

    private static String url(int port) {
        return "http://127.0.0.1:" + port;
    }

    @Test
    void aCollectorShuttingDownSendsTheAgentToTheNextAtOnceWithNoGap() throws Exception {
        Collector.Running first = collector(0);
        Collector.Running second = collector(0);
        // a backoff this long would fail the wait below: only the 1012 path moves in time
        AgentStreamer streamer = deploy(url(first.port()) + "," + url(second.port()), Duration.ofSeconds(60),
                Duration.ofSeconds(60));
        waitFor(() -> streamer.stats().acknowledgedSeq() >= 5, "streaming to the first collector");
        assertEquals("ws://127.0.0.1:" + first.port() + "/api/agent/stream", streamer.stats().endpoint());
        int takenBeforeMove = sampler.timestamps().size();
        await(first.close());

        waitFor(() -> streamer.stats().connected() && streamer.stats().failovers() == 1
                && streamer.stats().buffered() <= 1, "on the second collector, replay acknowledged", Duration.ofSeconds(20));
        assertEquals("ws://127.0.0.1:" + second.port() + "/api/agent/stream", streamer.stats().endpoint());
        assertTrue(streamer.stats().lastFailure() == null);
        // the node's history can be there before its port's is (this wait once failed on that under load)
        waitFor(() -> second.store().history("node-f")
                        .map(h -> h.getOrDefault("mlx5_0/1", List.of()).size()).orElse(0) >= 5,
                "the second collector holds a history");
        List<Long> received = second.store().history("node-f").orElseThrow().get("mlx5_0/1").stream()
                .map(RatePoint::timestampMillis).toList();
        int from = sampler.timestamps().indexOf(received.get(0));
        assertEquals(sampler.timestamps().subList(from, from + received.size()), received, "a gapless run of samples");
        assertTrue(from <= takenBeforeMove, "the second collector's history starts at sample " + from
                + ", the move began at " + takenBeforeMove);
        assertEquals(0, streamer.stats().dropped());
    }

    @Test
    void aRefusedFirstUrlLeadsToTheSecondAndAllDownBacksOffUntilOneReturns() throws Exception {
        int down = LoopbackPorts.free();
        Collector.Running second = collector(0);
        int secondPort = second.port();
        AgentStreamer streamer = deploy(url(down) + "," + url(secondPort), Duration.ofMillis(50), Duration.ofMillis(400));
        waitFor(() -> streamer.stats().connected(), "connected to the second URL");
        assertEquals("ws://127.0.0.1:" + secondPort + "/api/agent/stream", streamer.stats().endpoint());
        assertEquals(0, streamer.stats().failovers(), "the first connection is no failover");

        await(second.close());
        waitFor(() -> !streamer.stats().connected() && streamer.stats().lastFailure() != null
                && streamer.stats().lastFailure().startsWith("cannot connect"), "both down: attempts fail");
        long connects = streamer.stats().connects();
        Collector.Running back = collector(secondPort);
        waitFor(() -> streamer.stats().connected() && streamer.stats().connects() > connects, "back on the second",
                Duration.ofSeconds(20));
        waitFor(() -> back.store().node("node-f").isPresent(), "the returned collector holds the node");
    }

    @Test
    void urlListsAreCheckedWhole() {
        IllegalArgumentException twice = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> StreamEndpoint.list("http://a:9470, ws://a:9470"));
        assertTrue(twice.getMessage().contains("listed twice"), twice.getMessage());
        IllegalArgumentException empty = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> StreamEndpoint.list("http://a:9470,,http://b:9470"));
        assertTrue(empty.getMessage().contains("empty collector URL"), empty.getMessage());
        IllegalArgumentException bad = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> StreamEndpoint.list("http://a:9470,ftp://b"));
        assertTrue(bad.getMessage().contains("'ftp://b'"), bad.getMessage());
        assertEquals(List.of(StreamEndpoint.from("http://a:9470"), StreamEndpoint.from("https://b:9443")),
                StreamEndpoint.list("http://a:9470, https://b:9443"));
    }
}
