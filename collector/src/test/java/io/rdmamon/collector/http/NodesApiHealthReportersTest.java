package io.rdmamon.collector.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rdmamon.collector.fabric.FabricStore;
import io.rdmamon.collector.store.NodeStore;
import io.rdmamon.protocol.model.HostSample;
import io.rdmamon.protocol.model.IbDevice;
import io.rdmamon.protocol.model.NicHealthReporter;
import io.rdmamon.protocol.testing.Samples;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code GET /api/nodes/{node}}: {@code healthReporters} lists the devlink health reporters of the node's last
 * {@code devlink-health} frame as the frame carries them (what the port page shows), and is null for an agent that
 * sends none.
 */
class NodesApiHealthReportersTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final NodeStore nodes = new NodeStore(System::currentTimeMillis, 3, 60_000, 10, 100);
    private final NodesApi api = new NodesApi(nodes, "r1", new FabricStore(System::currentTimeMillis));
    private final IbDevice mlx5 = new IbDevice("mlx5_0", IbDevice.NODE_TYPE_CA, "CA", null, null, null, null, null,
            List.of(Samples.unreadablePort(1)));

    @Test
    void theNodesReportersAreListedAsTheFrameCarriesThem() throws Exception {
        nodes.connect("gpu-01", "1.0", 1000);
        nodes.accept(new HostSample("gpu-01", System.currentTimeMillis(), List.of(mlx5), List.of(), null, null, null,
                List.of(new NicHealthReporter("mlx5_0", "", "pci/0000:3b:00.0", "fw_fatal", "error", 1, 0, 1_200_000L),
                        new NicHealthReporter("mlx5_0", "1", "pci/0000:3b:00.0/65535", "tx", "healthy", 3, 3, null))));

        JsonNode reporters = detail("gpu-01").get("healthReporters");

        assertEquals(2, reporters.size(), reporters.toString());
        assertEquals(JSON.readTree("{\"device\":\"mlx5_0\",\"port\":null,\"handle\":\"pci/0000:3b:00.0\","
                + "\"reporter\":\"fw_fatal\",\"state\":\"error\",\"errors\":1,\"recovers\":0,"
                + "\"gracePeriodMillis\":1200000}"), reporters.get(0));
        assertEquals(JSON.readTree("{\"device\":\"mlx5_0\",\"port\":\"1\",\"handle\":\"pci/0000:3b:00.0/65535\","
                + "\"reporter\":\"tx\",\"state\":\"healthy\",\"errors\":3,\"recovers\":3,\"gracePeriodMillis\":null}"),
                reporters.get(1));
    }

    @Test
    void anAgentThatSendsNoneHasNone() throws Exception {
        nodes.connect("gpu-02", "1.0", 1000);
        nodes.accept(new HostSample("gpu-02", System.currentTimeMillis(), List.of(mlx5), List.of()));

        JsonNode detail = detail("gpu-02");

        assertTrue(detail.get("healthReporters").isNull(), detail.toString());
        assertEquals("mlx5_0", detail.get("devices").get(0).get("name").asText());
    }

    private JsonNode detail(String node) throws Exception {
        var answer = api.detail(node);
        assertEquals(200, answer.status(), answer.json());
        return JSON.readTree(answer.json());
    }
}
