package io.rdmamon.agent.stream;

import io.rdmamon.agent.daemon.AgentDaemon;
import io.rdmamon.agent.daemon.AgentDaemonOptions;
import io.rdmamon.collector.Collector;
import io.rdmamon.collector.CollectorConfig;
import io.rdmamon.collector.auth.Role;
import io.rdmamon.collector.auth.TokenEntry;
import io.rdmamon.collector.store.RatePoint;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.client.WebClient;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.Duration;
import java.util.List;

import static io.rdmamon.protocol.testing.Waits.await;
import static io.rdmamon.protocol.testing.Waits.waitFor;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The real streamer, fed by the real agent daemon, against the real collector over loopback. */
@ExtendWith(VertxExtension.class)
class AgentStreamerTest {
    private static final String TOKEN = "fleet-token";
    /** Reads need a viewer token once any token is configured. */
    private static final String VIEWER = "viewer-token";
    private Vertx vertx;
    private final RecordingSampler sampler = new RecordingSampler();

    /** The extension's Vert.x, closed by it after each test (collectors and agents with it). */
    @BeforeEach
    void start(Vertx vertx) {
        this.vertx = vertx;
    }

    private Collector.Running collector(int port) throws Exception {
        return await(Collector.start(vertx, CollectorConfig.defaults().withListen("127.0.0.1:" + port)
                .withTokens(List.of(new TokenEntry(Role.AGENT, TOKEN, null), new TokenEntry(Role.VIEWER, VIEWER, null)))));
    }

    private AgentStreamer deploy(int port, String token, int buffer) throws Exception {
        Duration interval = Duration.ofMillis(100);
        AgentDaemon daemon = new AgentDaemon(AgentDaemonOptions.of("node-a", interval, sampler)
                .withStreamer(AgentStreamerOptions.of("http://127.0.0.1:" + port, "node-a")
                        .withToken(token).withInterval(interval).withBufferCapacity(buffer)
                        .withBackoff(Duration.ofMillis(50), Duration.ofMillis(200))));
        await(vertx.deployVerticle(daemon));
        return daemon.streamer();
    }

    @Test
    void samplesReachRestAndMetrics() throws Exception {
        Collector.Running collector = collector(0);
        AgentStreamer streamer = deploy(collector.port(), TOKEN, 600);
        waitFor(() -> streamer.stats().acknowledgedSeq() >= 3, "three samples acknowledged");
        WebClient http = WebClient.create(vertx);
        String nodes = await(http.request(HttpMethod.GET, collector.port(), "127.0.0.1", "/api/nodes")
                .bearerTokenAuthentication(VIEWER).send()).bodyAsString();
        assertTrue(nodes.contains("\"node\":\"node-a\"") && nodes.contains("\"up\":true"), nodes);
        String metrics = await(http.request(HttpMethod.GET, collector.port(), "127.0.0.1", "/metrics")
                .bearerTokenAuthentication(VIEWER).send()).bodyAsString();
        assertTrue(metrics.contains("rdma_port_data_received_bytes_total{device=\"mlx5_0\",node=\"node-a\",port=\"1\"}"), metrics);
        assertTrue(metrics.contains("rdma_agent_up{node=\"node-a\"} 1.0"), metrics);
        // rates of ~1 MB per ~100 ms: the history holds plausible numbers, not nulls
        RatePoint last = lastPoint(collector);
        assertTrue(last.rxBytesPerSecond() > 1_000_000, String.valueOf(last));
    }

    @Test
    void replaysBufferedSamplesAfterACollectorRestart() throws Exception {
        Collector.Running first = collector(0);
        int port = first.port();
        AgentStreamer streamer = deploy(port, TOKEN, 600);
        waitFor(() -> streamer.stats().acknowledgedSeq() >= 3, "streaming to the first collector");
        await(first.close());
        int takenBeforeOutage = sampler.timestamps().size();
        waitFor(() -> sampler.timestamps().size() >= takenBeforeOutage + 6, "samples taken during the outage");
        assertFalse(streamer.stats().connected());
        assertTrue(streamer.stats().buffered() >= 6, String.valueOf(streamer.stats()));

        Collector.Running second = collector(port);
        waitFor(() -> streamer.stats().connected() && streamer.stats().buffered() <= 1, "replay acknowledged");
        List<Long> received = second.store().history("node-a").orElseThrow().get("mlx5_0/1").stream()
                .map(RatePoint::timestampMillis).toList();
        int from = sampler.timestamps().indexOf(received.get(0));
        // a gapless run of the sampler's timestamps, starting no later than the outage began
        assertEquals(sampler.timestamps().subList(from, from + received.size()), received);
        assertTrue(from <= takenBeforeOutage, "replay started at sample " + from + ", outage began at " + takenBeforeOutage);
        assertEquals(0, streamer.stats().dropped());
        assertTrue(streamer.stats().connects() >= 2);
    }

    @Test
    void fullBufferDropsTheOldestAndCountsIt() throws Exception {
        Collector.Running probe = collector(0);
        int port = probe.port();
        await(probe.close()); // nothing listens there now
        AgentStreamer streamer = deploy(port, TOKEN, 3);
        waitFor(() -> streamer.stats().dropped() >= 3, "buffer overflowed");
        assertEquals(3, streamer.stats().buffered());
        assertFalse(streamer.stats().connected());
    }

    @Test
    void unknownTokenNeverConnects() throws Exception {
        Collector.Running collector = collector(0);
        AgentStreamer streamer = deploy(collector.port(), "not-the-token", 600);
        waitFor(() -> sampler.timestamps().size() >= 5, "a few sampling rounds");
        assertEquals(0, streamer.stats().connects());
        assertTrue(collector.store().nodes().isEmpty());
    }

    /** Two hosts configured with one node name: the second is refused, logs why, and keeps retrying. */
    @Test
    void aSecondAgentWithTheSameNodeNameIsToldWhyAndRetries() throws Exception {
        Collector.Running collector = collector(0);
        AgentStreamer first = deploy(collector.port(), TOKEN, 600);
        waitFor(() -> first.stats().acknowledgedSeq() >= 1, "the first agent streams");
        AgentStreamer second = deploy(collector.port(), TOKEN, 600);
        String refused = "closed by collector (1008 node name conflict: node-a is streaming on another live connection)";
        // lastFailure is the reason between a close and the next connect (the agent logs it with its retry delay)
        waitFor(() -> second.stats().connects() >= 2 && refused.equals(second.stats().lastFailure()),
                "the second agent was refused, and again after its retry");
        assertEquals(0, second.stats().acknowledgedSeq());
        assertTrue(first.stats().connected());
    }

    private static RatePoint lastPoint(Collector.Running collector) {
        List<RatePoint> points = collector.store().history("node-a").orElseThrow().get("mlx5_0/1");
        return points.get(points.size() - 1);
    }


}
