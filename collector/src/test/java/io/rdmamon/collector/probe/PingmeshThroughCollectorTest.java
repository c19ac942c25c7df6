package io.rdmamon.collector.probe;

import io.rdmamon.collector.Collector;
import io.rdmamon.collector.CollectorConfig;
import io.rdmamon.collector.auth.Role;
import io.rdmamon.collector.auth.TokenEntry;
import io.rdmamon.collector.pingmesh.PingmeshConfig;
import io.rdmamon.protocol.probe.LatencyResult;
import io.rdmamon.protocol.probe.ProbeRole;
import io.rdmamon.protocol.wire.Frame;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import static io.rdmamon.protocol.testing.Waits.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The pingmesh in a real collector over real agent streams: two agents allowing the pingmesh (golden hosts: a RoCE
 * and an eRDMA port each, one `fleet` group) answer its probes as ib_send_lat would; the matrix, the probe list with
 * {@code ?include=pingmesh} and {@code /metrics} show them.
 */
@ExtendWith(VertxExtension.class)
class PingmeshThroughCollectorTest {
    private static final String AGENT = "agent-secret";
    private static final String VIEWER = "viewer-secret";

    @Test
    void agentsAllowingThePingmeshAreProbedAndTheResultsServed(Vertx vertx) throws Exception {
        CollectorConfig config = CollectorConfig.defaults().withListen("127.0.0.1:0")
                .withTokens(List.of(new TokenEntry(Role.AGENT, AGENT, null), new TokenEntry(Role.VIEWER, VIEWER, null)))
                .withPingmesh(new PingmeshConfig(true, 1, 60, 20, 3, 1, 3, 14, 8, 0.5, List.of()));
        Collector.Running collector = await(Collector.start(vertx, config));
        try {
            WebClient http = WebClient.create(vertx);
            List<FakeAgent> agents = new ArrayList<>();
            for (String node : List.of("mesh-01", "mesh-02")) {
                agents.add(new FakeAgent(vertx.createWebSocketClient(), collector.port(), AGENT, node,
                        List.of(Frame.Hello.CAPABILITY_PINGMESH)));
            }
            List<Long> rtts = Collections.nCopies(19, 5_000L);
            JsonObject matrix = null;
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (System.nanoTime() < deadline) {
                for (FakeAgent agent : agents) {
                    Frame frame = agent.poll(Duration.ofMillis(100));
                    if (frame instanceof Frame.ProbeStart start && start.role() == ProbeRole.SERVER) {
                        agent.listening(start.probeId(), 18_515);
                    } else if (frame instanceof Frame.ProbeStart start) {
                        agent.latencyDone(start.probeId(), new LatencyResult(64, 20, rtts));
                    }
                }
                matrix = get(http, collector.port(), "/api/pingmesh").bodyAsJsonObject();
                if (matrix.getJsonArray("cells").size() == 4) {
                    break;
                }
            }
            assertEquals(4, matrix.getJsonArray("cells").size(), matrix.encode());
            assertEquals(new JsonArray().add(new JsonObject().put("name", "fleet").put("source", "fleet").put("ports", 4)),
                    matrix.getJsonArray("groups"));
            JsonArray cell = matrix.getJsonArray("cells").getJsonArray(0);
            assertEquals(List.of(18, 0), List.of(cell.getInteger(2), cell.getInteger(3)));  // 19 measured, the first left out as warm-up
            assertEquals(5e-6, cell.getDouble(4), 1e-12);

            JsonArray listed = get(http, collector.port(), "/api/probes").bodyAsJsonObject().getJsonArray("probes");
            assertEquals(0, listed.size(), "the pingmesh's probes are not listed by default");
            JsonArray all = get(http, collector.port(), "/api/probes?include=pingmesh").bodyAsJsonObject()
                    .getJsonArray("probes");
            assertTrue(all.size() >= 4, all.encode());
            assertTrue(all.getJsonObject(0).getString("id").startsWith("pm-"), all.encode());

            String metrics = get(http, collector.port(), "/metrics").bodyAsString();
            assertTrue(metrics.contains("rdma_pingmesh_loss_ratio{device=\"mlx5_0\",node=\"mesh-01\",port=\"1\","
                    + "scope=\"group\"} 0.0"), metrics);
            assertTrue(metrics.contains("rdma_pingmesh_group_rtt_seconds{dst_group=\"fleet\",quantile=\"0.5\","
                    + "src_group=\"fleet\"} 5.0E-6"), metrics);
            assertTrue(metrics.contains("rdmamon_collector_pingmesh_probes_total{outcome=\"ok\"}"), metrics);
            assertTrue(!metrics.contains("rdma_probe_success"), "pingmesh probes are no rdma_probe_* series");
        } finally {
            await(collector.close());
        }
    }

    private static HttpResponse<Buffer> get(WebClient http, int port, String path) throws Exception {
        HttpResponse<Buffer> response = await(http.get(port, "127.0.0.1", path)
                .putHeader("Authorization", "Bearer " + VIEWER).send());
        assertEquals(200, response.statusCode(), path + ": " + response.bodyAsString());
        return response;
    }
}
