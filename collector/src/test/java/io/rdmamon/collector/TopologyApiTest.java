package io.rdmamon.collector;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rdmamon.collector.auth.Role;
import io.rdmamon.collector.auth.TokenEntry;
import io.rdmamon.protocol.model.GpuTopology;
import io.rdmamon.protocol.model.HostSample;
import io.rdmamon.protocol.testing.FixtureHosts;
import io.rdmamon.protocol.wire.SampleEncoder;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.WebSocketClient;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.List;

import static io.rdmamon.protocol.testing.Waits.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code /api/nodes/{node}/topology} and the topology series of {@code /metrics}, from a sample over the wire. */
@ExtendWith(VertxExtension.class)
class TopologyApiTest {
    private static final String AGENT_TOKEN = "agent-secret-1";
    private static final String VIEWER_TOKEN = "viewer-secret-1";
    private static final ObjectMapper JSON = new ObjectMapper();
    private Vertx vertx;
    private Collector.Running collector;
    private WebClient http;
    private WebSocketClient wsClient;

    @BeforeEach
    void start(Vertx vertx) throws Exception {
        this.vertx = vertx;
        CollectorConfig config = CollectorConfig.defaults().withListen("127.0.0.1:0")
                .withTokens(List.of(new TokenEntry(Role.AGENT, AGENT_TOKEN, null),
                        new TokenEntry(Role.VIEWER, VIEWER_TOKEN, null)));
        collector = await(Collector.start(vertx, config));
        http = WebClient.create(vertx);
        wsClient = vertx.createWebSocketClient();
    }

    /** GPU0 pairs with mlx5_0 (PIX, ready); GPU1's closest NIC is mlx5_0 too but across the sockets. */
    private static GpuTopology topology() {
        return new GpuTopology(List.of(
                new GpuTopology.Endpoint("GPU0", "GPU0", "gpu", "0000:19:00.0", 0, "0-7", null),
                new GpuTopology.Endpoint("GPU1", "GPU1", "gpu", "0000:99:00.0", 1, "8-15", null),
                new GpuTopology.Endpoint("mlx5_0", "NIC0", "nic", "0000:19:02.0", 0, "0-7", true)),
                List.of(List.of("X", "SYS", "PIX"), List.of("SYS", "X", "SYS"), List.of("PIX", "SYS", "X")),
                List.of(new GpuTopology.Pair("GPU0", "mlx5_0", "PIX", "ready", true, List.of(), List.of()),
                        new GpuTopology.Pair("GPU1", "mlx5_0", "SYS", "not_ready", true, List.of(),
                                List.of("GPU1↔mlx5_0 path SYS: NCCL will not use GPUDirect RDMA "
                                        + "(NCCL_NET_GDR_LEVEL default PXB)"))),
                true, List.of("peermem: sys/module/nvidia_peermem"));
    }

    @Test
    void topologyOfTheLastSampleAndItsSeries() throws Exception {
        HostSample golden = FixtureHosts.golden("gpu-01", 1_000_000L, 1);
        HostSample sample = new HostSample("gpu-01", golden.timestampMillis(), golden.devices(), golden.sources(), null,
                topology());
        new RawAgent(wsClient, collector.port(), AGENT_TOKEN).sample(new SampleEncoder("gpu-01", "test", 60_000),
                sample, 1);

        JsonNode body = JSON.readTree(get("/api/nodes/gpu-01/topology").bodyAsString());
        String metrics = get("/metrics").bodyAsString();

        assertEquals("gpu-01", body.get("node").asText());
        assertEquals(false, body.get("gdrReady").asBoolean());
        assertEquals("PIX", body.get("matrix").get(0).get(2).asText());
        assertEquals("NIC0", body.get("endpoints").get(2).get("label").asText());
        assertEquals("not_ready", body.get("pairs").get(1).get("verdict").asText());
        assertEquals("GPU0", body.get("choices").get(0).get("gpu").asText());
        assertEquals(true, body.get("choices").get(0).get("good").asBoolean());
        assertEquals(false, body.get("choices").get(1).get("good").asBoolean());
        assertTrue(metrics.contains("rdma_gpu_nic_path_info{gpu=\"GPU0\",nic=\"mlx5_0\",node=\"gpu-01\",path=\"PIX\"} 1"),
                metrics);
        assertTrue(metrics.contains("rdma_gpudirect_ready{gpu=\"GPU1\",nic=\"mlx5_0\",node=\"gpu-01\"} 0"), metrics);
        assertEquals(404, get("/api/nodes/nope/topology").statusCode());
    }

    @Test
    void aNodeWithoutGpusAnswersWithNoEndpoints() throws Exception {
        new RawAgent(wsClient, collector.port(), AGENT_TOKEN).sample(new SampleEncoder("cpu-01", "test", 60_000),
                FixtureHosts.golden("cpu-01", 1_000_000L, 1), 1);

        JsonNode body = JSON.readTree(get("/api/nodes/cpu-01/topology").bodyAsString());

        assertTrue(body.get("gdrReady").isNull());
        assertEquals(0, body.get("endpoints").size());
    }

    private HttpResponse<Buffer> get(String path) throws Exception {
        return await(http.request(HttpMethod.GET, collector.port(), "127.0.0.1", path)
                .putHeader("Authorization", "Bearer " + VIEWER_TOKEN).send());
    }
}
