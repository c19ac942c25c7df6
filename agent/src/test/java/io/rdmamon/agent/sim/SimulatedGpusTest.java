package io.rdmamon.agent.sim;

import io.rdmamon.agent.topology.GpuTopologies;
import io.rdmamon.agent.topology.TopologyReader;
import io.rdmamon.agent.topology.TopologyReport;
import io.rdmamon.protocol.model.GpuTopology;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The simulated GPU nodes: a good one, and one per topology fault, as the agent's topology read sees them. */
class SimulatedGpusTest {

    private static GpuTopology topology(Path base, Scenario scenario, int node) throws IOException {
        FabricSimulator fleet = FabricSimulator.create(base, new SimulationSpec(3, scenario, 11, 3));
        return GpuTopologies.of(TopologyReport.of(new TopologyReader(fleet.nodes().get(node).hostRoot()).read()));
    }

    @Test
    void aHealthyGpuNodePairsEachGpuWithItsNicAndIsReady(@TempDir Path base) throws IOException {
        GpuTopology topology = topology(base, Scenario.HEALTHY, 0);

        assertEquals(List.of("GPU0", "GPU1", "mlx5_0", "mlx5_1"),
                topology.endpoints().stream().map(GpuTopology.Endpoint::name).toList());
        List<GpuTopology.Pair> chosen = topology.pairs().stream().filter(GpuTopology.Pair::chosen).toList();
        assertEquals(List.of("GPU0/mlx5_0/PIX/ready", "GPU1/mlx5_1/PIX/ready"), chosen.stream()
                .map(p -> p.gpu() + "/" + p.nic() + "/" + p.path() + "/" + p.verdict()).toList(), topology::toString);
        assertTrue(topology.peermem());
    }

    @Test
    void theInfinibandNodeHasNoGpus(@TempDir Path base) throws IOException {
        assertNull(topology(base, Scenario.HEALTHY, 2));
    }

    @Test
    void farNicIsSysForEveryGpu(@TempDir Path base) throws IOException {
        GpuTopology topology = topology(base, Scenario.GPU_FAR_NIC, 0);

        assertTrue(topology.pairs().stream().allMatch(p -> p.path().equals("SYS") && p.verdict().equals("not_ready")),
                topology::toString);
    }

    @Test
    void acsRedirectOnTheRootPorts(@TempDir Path base) throws IOException {
        GpuTopology topology = topology(base, Scenario.ACS_REDIRECT, 0);
        GpuTopology.Pair pair = topology.pairs().get(0);

        assertEquals("not_ready", pair.verdict());
        assertEquals(1, pair.acsRedirect().size(), pair::toString);
        assertTrue(pair.reasons().get(0).startsWith("ACS P2P Request Redirect and P2P Completion Redirect and "
                + "Upstream Forwarding on bridge "), pair.reasons().get(0));
    }

    @Test
    void noPeermemIsNotReady(@TempDir Path base) throws IOException {
        GpuTopology topology = topology(base, Scenario.NO_PEERMEM, 0);
        GpuTopology.Pair pair = topology.pairs().get(0);

        assertEquals("not_ready", pair.verdict());
        assertTrue(pair.reasons().get(0).startsWith("no nvidia_peermem and no DMA-BUF"), pair.reasons().get(0));
    }
}
