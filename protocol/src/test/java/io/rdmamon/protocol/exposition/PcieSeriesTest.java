package io.rdmamon.protocol.exposition;

import io.rdmamon.protocol.model.HostSample;
import io.rdmamon.protocol.model.IbDevice;
import io.rdmamon.protocol.model.IbPort;
import io.rdmamon.protocol.model.PciFunction;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/** {@code rdma_pcie_*}: per port of the device, base units, absent values absent. */
class PcieSeriesTest {

    @Test
    void linkAndAerSeriesOfEachPortOfTheDevice() throws IOException {
        PciFunction pci = new PciFunction("0000:3b:00.0", null, "0000:3b:00.0", "8.0 GT/s PCIe", "16.0 GT/s PCIe",
                8_000_000_000L, 16_000_000_000L, 8, 16, Map.of("correctable", 4L, "fatal", 0L), List.of());
        String text = render(pci, 2);

        assertEquals(Stream.of(
                "rdma_pcie_aer_errors_total{device=\"mlx4_1\",node=\"h3\",port=\"1\",severity=\"correctable\"} 4.0",
                "rdma_pcie_aer_errors_total{device=\"mlx4_1\",node=\"h3\",port=\"1\",severity=\"fatal\"} 0.0",
                "rdma_pcie_aer_errors_total{device=\"mlx4_1\",node=\"h3\",port=\"2\",severity=\"correctable\"} 4.0",
                "rdma_pcie_aer_errors_total{device=\"mlx4_1\",node=\"h3\",port=\"2\",severity=\"fatal\"} 0.0",
                "rdma_pcie_link_speed_transfers_per_second{device=\"mlx4_1\",node=\"h3\",port=\"1\"} 8.0E9",
                "rdma_pcie_link_speed_transfers_per_second{device=\"mlx4_1\",node=\"h3\",port=\"2\"} 8.0E9",
                "rdma_pcie_link_speed_transfers_per_second_max{device=\"mlx4_1\",node=\"h3\",port=\"1\"} 1.6E10",
                "rdma_pcie_link_speed_transfers_per_second_max{device=\"mlx4_1\",node=\"h3\",port=\"2\"} 1.6E10",
                "rdma_pcie_link_width{device=\"mlx4_1\",node=\"h3\",port=\"1\"} 8.0",
                "rdma_pcie_link_width{device=\"mlx4_1\",node=\"h3\",port=\"2\"} 8.0",
                "rdma_pcie_link_width_max{device=\"mlx4_1\",node=\"h3\",port=\"1\"} 16.0",
                "rdma_pcie_link_width_max{device=\"mlx4_1\",node=\"h3\",port=\"2\"} 16.0").sorted().toList(),
                text.lines().filter(l -> l.startsWith("rdma_pcie")).sorted().toList());
    }

    @Test
    void absentLinkValuesAndAerFilesAreAbsentSeries() throws IOException {
        PciFunction virtio = new PciFunction("0000:00:06.0", null, "0000:00:06.0", null, null, null, null, null, null,
                Map.of(), List.of("no PCIe link attributes"));
        assertFalse(render(virtio, 1).contains("rdma_pcie"));
        assertFalse(render(null, 1).contains("rdma_pcie"));
    }

    private static String render(PciFunction pci, int ports) throws IOException {
        List<IbPort> list = new ArrayList<>();
        for (int i = 1; i <= ports; i++) {
            list.add(IbPort.builder().port(i).stateId(4).state("ACTIVE").physStateId(5).physState("LinkUp")
                    .linkLayer("InfiniBand").lid("0x1").build());
        }
        HostSample sample = new HostSample("h3", 1000, List.of(new IbDevice("mlx4_1", 1, "CA", null, null, "2.42",
                "MT4099", null, list, pci)), List.of());
        ExpositionAssembler assembler = new ExpositionAssembler();
        assembler.add(new NodeRenderer().render("h3", sample));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        assembler.write(out, ExpositionFormat.PROMETHEUS_TEXT);
        return out.toString(StandardCharsets.UTF_8);
    }
}
