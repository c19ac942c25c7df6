package io.rdmamon.protocol.exposition;

import io.rdmamon.protocol.model.HostSample;
import io.rdmamon.protocol.model.IbDevice;
import io.rdmamon.protocol.model.IbPort;
import io.rdmamon.protocol.model.LldpNeighbor;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code rdma_port_neighbor_info}: one series per port with a known LLDP neighbour, in the full profile only. */
class NeighborSeriesTest {

    @Test
    void aPortWithANeighbourHasOneInfoSeriesNamingTheSwitchPort() throws IOException {
        String text = render(port(new LldpNeighbor("1c:34:da:00:00:01", "mac", "leaf-01", "Ethernet8", "ifname",
                "to roce-01")), MetricSelection.FULL);

        assertTrue(text.contains("# TYPE rdma_port_neighbor_info gauge\n"), text);
        assertTrue(text.contains("rdma_port_neighbor_info{chassis_id=\"1c:34:da:00:00:01\",device=\"mlx5_0\","
                + "node=\"h1\",port=\"1\",port_id=\"Ethernet8\",system_name=\"leaf-01\"} 1\n"), text);
    }

    @Test
    void aSwitchWithoutASystemNameHasAnEmptyLabel() throws IOException {
        String text = render(port(new LldpNeighbor("10.0.0.1", "ip", null, "swp3", "ifname", null)),
                MetricSelection.FULL);

        assertTrue(text.contains("rdma_port_neighbor_info{chassis_id=\"10.0.0.1\",device=\"mlx5_0\",node=\"h1\","
                + "port=\"1\",port_id=\"swp3\",system_name=\"\"} 1\n"), text);
    }

    @Test
    void noNeighbourNoSeries() throws IOException {
        assertFalse(render(port(null), MetricSelection.FULL).contains("rdma_port_neighbor_info"));
    }

    @Test
    void theStandardAndMinimalProfilesLeaveItOutUnlessAsked() throws IOException {
        IbPort port = port(new LldpNeighbor("1c:34:da:00:00:01", "mac", "leaf-01", "Ethernet8", "ifname", null));

        assertFalse(render(port, MetricSelection.parse("standard")).contains("rdma_port_neighbor_info"));
        assertFalse(render(port, MetricSelection.parse("minimal")).contains("rdma_port_neighbor_info"));
        assertTrue(render(port, MetricSelection.parse("standard,+rdma_port_neighbor_info"))
                .contains("rdma_port_neighbor_info{"));
    }

    private static IbPort port(LldpNeighbor neighbor) {
        return IbPort.builder().port(1).stateId(4).state("ACTIVE").physStateId(5).physState("LinkUp")
                .linkLayer("Ethernet").netdev("ens1f0np0").neighbor(neighbor).build();
    }

    private static String render(IbPort port, MetricSelection selection) throws IOException {
        HostSample sample = new HostSample("h1", 1000, List.of(new IbDevice("mlx5_0", 1, "CA", null, null, "x",
                null, null, List.of(port))), List.of());
        ExpositionAssembler assembler = new ExpositionAssembler();
        assembler.add(new NodeRenderer(selection).render("h1", sample));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        assembler.write(out, ExpositionFormat.PROMETHEUS_TEXT);
        return out.toString(StandardCharsets.UTF_8);
    }
}
