package io.rdmamon.protocol.exposition;

import io.rdmamon.protocol.model.GpuTopology;
import io.rdmamon.protocol.model.HostSample;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/** {@code rdma_gpu_nic_path_info} and {@code rdma_gpudirect_ready}: one of each per GPU↔NIC pair, sorted. */
class TopologySeriesTest {

    @Test
    void onePathInfoAndOneReadinessPerPair() throws IOException {
        GpuTopology topology = new GpuTopology(List.of(
                new GpuTopology.Endpoint("GPU0", "GPU0", "gpu", "0000:19:00.0", 0, "0-7", null),
                new GpuTopology.Endpoint("GPU10", "GPU10", "gpu", "0000:29:00.0", 0, "0-7", null),
                new GpuTopology.Endpoint("mlx5_0", "NIC0", "nic", "0000:19:02.0", 0, "0-7", true)),
                List.of(List.of("X", "NODE", "PIX"), List.of("NODE", "X", "NODE"), List.of("PIX", "NODE", "X")),
                List.of(new GpuTopology.Pair("GPU10", "mlx5_0", "NODE", "not_ready", true, List.of(), List.of("far")),
                        new GpuTopology.Pair("GPU0", "mlx5_0", "PIX", "ready", true, List.of(), List.of())),
                true, List.of());

        String text = render(new HostSample("g1", 1000, List.of(), List.of(), null, topology));

        assertEquals(List.of(
                "# HELP rdma_gpu_nic_path_info PCIe path class of a GPU/NIC pair as nvidia-smi topo -m prints it "
                        + "(path: PIX, PXB, PHB, NODE, SYS; docs/topology.md)",
                "# TYPE rdma_gpu_nic_path_info gauge",
                "rdma_gpu_nic_path_info{gpu=\"GPU0\",nic=\"mlx5_0\",node=\"g1\",path=\"PIX\"} 1",
                "rdma_gpu_nic_path_info{gpu=\"GPU10\",nic=\"mlx5_0\",node=\"g1\",path=\"NODE\"} 1"),
                text.lines().filter(l -> l.contains("rdma_gpu_nic_path")).toList());
        assertEquals(List.of(
                "rdma_gpudirect_ready{gpu=\"GPU0\",nic=\"mlx5_0\",node=\"g1\"} 1.0",
                "rdma_gpudirect_ready{gpu=\"GPU10\",nic=\"mlx5_0\",node=\"g1\"} 0.0"),
                text.lines().filter(l -> l.startsWith("rdma_gpudirect_ready")).toList());
    }

    @Test
    void noTopologyNoSeries() throws IOException {
        String text = render(new HostSample("g1", 1000, List.of(), List.of()));
        assertFalse(text.contains("rdma_gpu"), text);
    }

    private static String render(HostSample sample) throws IOException {
        ExpositionAssembler assembler = new ExpositionAssembler();
        assembler.add(new NodeRenderer().render("g1", sample));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        assembler.write(out, ExpositionFormat.PROMETHEUS_TEXT);
        return out.toString(StandardCharsets.UTF_8);
    }
}
