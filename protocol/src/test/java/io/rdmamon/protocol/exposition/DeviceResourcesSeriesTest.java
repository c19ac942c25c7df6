package io.rdmamon.protocol.exposition;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.rdmamon.protocol.model.HostSample;
import io.rdmamon.protocol.model.IbDevice;
import io.rdmamon.protocol.model.IbPort;
import io.rdmamon.protocol.model.PortWorkload;
import io.rdmamon.protocol.model.QueuePair;
import io.rdmamon.protocol.model.RdmaResources;

/** {@code rdma_device_resources{type}}: one gauge per resource type of the device's RES_GET summary. */
class DeviceResourcesSeriesTest {

    @Test
    void eachResourceTypeOfTheSummaryIsOneGaugeOfTheDevice() throws IOException {
        Map<String, Long> summary = new LinkedHashMap<>();
        summary.put("pd", 1L);
        summary.put("cq", 2L);
        summary.put("qp", 3L);
        summary.put("cm_id", 0L);
        String text = render(new RdmaResources(summary, List.of(new QueuePair(17, null, 1, "RC", "RTS", 9L, null)),
                2));
        assertEquals(List.of(
                "# HELP rdma_device_resources Current count of each RDMA resource type of the device (RDMA netlink "
                        + "RES_GET summary, as rdma resource show prints it: pd, cq, qp, cm_id, mr, ctx, srq)",
                "# TYPE rdma_device_resources gauge",
                "rdma_device_resources{device=\"rxe0\",node=\"h1\",type=\"cm_id\"} 0.0",
                "rdma_device_resources{device=\"rxe0\",node=\"h1\",type=\"cq\"} 2.0",
                "rdma_device_resources{device=\"rxe0\",node=\"h1\",type=\"pd\"} 1.0",
                "rdma_device_resources{device=\"rxe0\",node=\"h1\",type=\"qp\"} 3.0"),
                text.lines().filter(l -> l.contains("rdma_device_resources")).toList());
        assertFalse(text.contains("lqpn") || text.contains("\"17\""), "the QP list is no series");
    }

    @Test
    void eachWorkloadOfThePortIsAnInfoAndAQpCount() throws IOException {
        String text = render(new RdmaResources(Map.of(), List.of(), 0).withWorkloads(List.of(
                new PortWorkload(1, "ml", "train-0", "worker", "python3", PortWorkload.PROCESS, null, 12),
                new PortWorkload(1, null, null, null, "[ib_core]", PortWorkload.NONE, "kernel QP", 1))));
        String train = "{attribution=\"process\",comm=\"python3\",container=\"worker\",device=\"rxe0\","
                + "namespace=\"ml\",node=\"h1\",pod=\"train-0\",port=\"1\",reason=\"\"}";
        String kernel = "{attribution=\"none\",comm=\"[ib_core]\",container=\"\",device=\"rxe0\",namespace=\"\","
                + "node=\"h1\",pod=\"\",port=\"1\",reason=\"kernel QP\"}";
        assertEquals(List.of("rdma_port_workload_info" + train + " 1", "rdma_port_workload_info" + kernel + " 1",
                "rdma_port_workload_qps" + train + " 12.0", "rdma_port_workload_qps" + kernel + " 1.0"),
                text.lines().filter(l -> l.startsWith("rdma_port_workload")).toList());
    }

    @Test
    void aDeviceWhoseResourcesWereNotReadHasNoSeries() throws IOException {
        String text = render(null);
        assertTrue(text.contains("rdma_device_info{"), text);
        assertFalse(text.contains("rdma_device_resources") || text.contains("rdma_port_workload"), text);
    }

    private static String render(RdmaResources resources) throws IOException {
        IbPort port = IbPort.builder().port(1).stateId(4).state("ACTIVE").physStateId(5).physState("LinkUp")
                .linkLayer("Ethernet").lid("0x0").build();
        HostSample sample = new HostSample("h1", 1000, List.of(new IbDevice("rxe0", 1, "CA", null, null, "0.0.0", null,
                null, List.of(port), null, resources)), List.of());
        ExpositionAssembler assembler = new ExpositionAssembler();
        assembler.add(new NodeRenderer().render("h1", sample));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        assembler.write(out, ExpositionFormat.PROMETHEUS_TEXT);
        return out.toString(StandardCharsets.UTF_8);
    }
}
