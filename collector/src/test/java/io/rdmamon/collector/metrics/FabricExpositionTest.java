package io.rdmamon.collector.metrics;

import io.rdmamon.collector.fabric.FabricStore;
import io.rdmamon.collector.store.NodeStore;
import io.rdmamon.protocol.exposition.ExpositionFormat;
import io.rdmamon.protocol.exposition.MetricSelection;
import io.rdmamon.protocol.fabric.FabricSweep;
import io.rdmamon.protocol.model.HostSample;
import io.rdmamon.protocol.model.IbDevice;
import io.rdmamon.protocol.testing.FabricSweeps;
import io.rdmamon.protocol.testing.Samples;
import io.rdmamon.protocol.wire.FabricWire;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class FabricExpositionTest {
    private static final String SUBNET = "subnet=\"0xfe80000000000000/0x0000000000100001\"";

    static String scrape(FabricStore fabrics, MetricSelection selection) throws IOException {
        RdmaMetrics metrics = new RdmaMetrics(new NodeStore(System::currentTimeMillis, 3, 60_000, 10, 100), List::of,
                List::of, selection, () -> null, fabrics);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        metrics.write(out, ExpositionFormat.PROMETHEUS_TEXT);
        return out.toString(StandardCharsets.UTF_8);
    }

    static FabricStore holding(FabricSweep sweep) {
        FabricStore store = new FabricStore(System::currentTimeMillis);
        FabricWire.parts(sweep, 2).forEach(part -> store.accept(sweep.sweeper(), part));
        return store;
    }

    @Test
    void everyCounterIsNamedByBothEndsOfItsLinkAndDataIsInBytes() throws IOException {
        String text = scrape(holding(FabricSweeps.leafAndTwoHosts("s1")), MetricSelection.FULL);
        assertTrue(text.contains("rdma_fabric_port_symbol_error_total{node=\"leaf1\",node_guid=\"0x0000000000200000\","
                + "port=\"2\",remote=\"h2 mlx5_0\",remote_port=\"1\"," + SUBNET + "} 50.0\n"), text);
        assertTrue(text.contains("rdma_fabric_port_xmit_wait_total{node=\"leaf1\",node_guid=\"0x0000000000200000\","
                + "port=\"2\",remote=\"h2 mlx5_0\",remote_port=\"1\"," + SUBNET + "} 1234.0\n"), text);
        // PortXmitData 2^64-1 words: 4 times as many bytes
        assertTrue(text.contains("rdma_fabric_port_data_transmitted_bytes_total{node=\"h1 mlx5_0\",node_guid="
                + "\"0x0000000000100000\",port=\"1\",remote=\"leaf1\",remote_port=\"1\"," + SUBNET + "} 7.378697629483821E19\n"), text);
        assertTrue(text.contains("# TYPE rdma_fabric_port_rcv_errors_total counter"), text);
        // the down port: its counters and state, with nothing at the other end
        assertTrue(text.contains("rdma_fabric_link_info{node=\"leaf1\",node_guid=\"0x0000000000200000\",phys_state="
                + "\"Polling\",port=\"3\",remote=\"\",remote_port=\"\",speed=\"\",state=\"Down\"," + SUBNET
                + ",supported_speed=\"SDR\",supported_width=\"1X,4X,12X\",width=\"\"} 1\n"), text);
        assertTrue(text.contains("rdma_fabric_link_info{node=\"h2 mlx5_0\",node_guid=\"0x0000000000100002\",phys_state="
                + "\"LinkUp\",port=\"1\",remote=\"leaf1\",remote_port=\"2\",speed=\"SDR\",state=\"Active\"," + SUBNET
                + ",supported_speed=\"SDR,DDR,QDR\",supported_width=\"1X,4X,12X\",width=\"1X\"} 1\n"), text);
        assertTrue(text.contains("rdma_fabric_nodes{" + SUBNET + ",type=\"CA\"} 2.0\n"), text);
        assertTrue(text.contains("rdma_fabric_nodes{" + SUBNET + ",type=\"SWITCH\"} 1.0\n"), text);
        assertTrue(text.contains("rdma_fabric_sweep_duration_seconds{" + SUBNET + ",sweeper=\"s1\"} 0.31\n"), text);
        assertTrue(text.contains("rdma_fabric_sweep_success{" + SUBNET + ",sweeper=\"s1\"} 1.0\n"), text);
    }

    /** An InfiniBand host port learns its switch port from the fabric, as an Ethernet port from LLDP. */
    @Test
    void aHostPortInTheFabricNamesItsSwitchPort() throws IOException {
        NodeStore nodes = new NodeStore(System::currentTimeMillis, 3, 60_000, 10, 100);
        nodes.connect("gpu-02", "1.0", 1000);
        IbDevice h2 = new IbDevice("mlx5_0", IbDevice.NODE_TYPE_CA, "CA", "0000:0000:0010:0002", null, null, null, null,
                List.of(Samples.unreadablePort(1)));
        nodes.accept(new HostSample("gpu-02", System.currentTimeMillis(), List.of(h2), List.of()));
        RdmaMetrics metrics = new RdmaMetrics(nodes, List::of, List::of, MetricSelection.FULL, () -> null,
                holding(FabricSweeps.leafAndTwoHosts("s1")));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        metrics.write(out, ExpositionFormat.PROMETHEUS_TEXT);
        String text = out.toString(StandardCharsets.UTF_8);
        assertTrue(text.contains("rdma_port_neighbor_info{chassis_id=\"0x0000000000200000\",device=\"mlx5_0\","
                + "node=\"gpu-02\",port=\"1\",port_id=\"2\",system_name=\"leaf1\"} 1\n"), text);
    }

    @Test
    void minimalKeepsTheErrorsAndTheLinkStateOnly() throws IOException {
        String text = scrape(holding(FabricSweeps.leafAndTwoHosts("s1")), MetricSelection.parse("minimal"));
        assertTrue(text.contains("rdma_fabric_port_symbol_error_total{"), text);
        assertTrue(text.contains("rdma_fabric_port_xmit_discards_total{"), text);
        assertFalse(text.contains("rdma_fabric_port_vl15_dropped_total"), text);
        assertTrue(text.contains("rdma_fabric_link_info{"), text);
        assertTrue(text.contains("rdma_fabric_sweep_success{"), text);
        assertFalse(text.contains("rdma_fabric_port_xmit_wait_total"), text);
        assertFalse(text.contains("rdma_fabric_port_data_transmitted_bytes_total"), text);
        assertFalse(text.contains("rdma_fabric_nodes"), text);
        String none = scrape(holding(FabricSweeps.leafAndTwoHosts("s1")), MetricSelection.parse("full,-rdma_fabric_*"));
        assertFalse(none.contains("rdma_fabric"), none);
    }
}
