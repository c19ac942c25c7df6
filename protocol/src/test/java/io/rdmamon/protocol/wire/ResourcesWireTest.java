package io.rdmamon.protocol.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;

import io.rdmamon.protocol.model.HostSample;
import io.rdmamon.protocol.model.IbDevice;
import io.rdmamon.protocol.model.IbPort;
import io.rdmamon.protocol.model.PortWorkload;
import io.rdmamon.protocol.model.QueuePair;
import io.rdmamon.protocol.model.RdmaResources;

/**
 * A device's RDMA netlink resources and a port's hw counter source in the protocol 3 layout: optional fields a
 * collector that predates them skips (layouts are read without a key check), so agents keep talking to it.
 */
class ResourcesWireTest {
    private final FrameCodec codec = new FrameCodec(WireFormat.DEFAULT_MAX_FRAME_BYTES);

    private static RdmaResources resources(long qpCount, QueuePair... qps) {
        Map<String, Long> summary = new LinkedHashMap<>();
        summary.put("pd", 1L);
        summary.put("cq", 1L);
        summary.put("qp", qpCount);
        return new RdmaResources(summary, List.of(qps), 0);
    }

    private static HostSample host(RdmaResources resources, String hwCountersSource, long ts) {
        IbPort port = IbPort.builder().port(1).stateId(4).state("ACTIVE").physStateId(5).physState("LinkUp")
                .linkLayer("Ethernet").lid("0x0").hwCounters(Map.of("sent_pkts", 94_699L + ts))
                .hwCountersSource(hwCountersSource).build();
        return new HostSample("n", ts, List.of(new IbDevice("rxe0", 1, "CA", null, null, "0.0.0", null, null,
                List.of(port), null, resources)), List.of());
    }

    private List<HostSample> roundTrip(HostSample... samples) throws FrameException {
        SampleEncoder encoder = new SampleEncoder("n", "1", 1000);
        SampleDecoder decoder = new SampleDecoder();
        List<HostSample> decoded = new ArrayList<>();
        for (int i = 0; i < samples.length; i++) {
            for (Frame frame : encoder.encode(samples[i], i + 1)) {
                decoder.accept(codec.decode(codec.encode(frame))).ifPresent(decoded::add);
            }
        }
        return decoded;
    }

    @Test
    void resourcesAndTheHwCounterSourceSurviveTheWire() throws FrameException {
        HostSample sample = host(resources(2, new QueuePair(1, null, 1, "GSI", "RTS", null, "ib_core"),
                new QueuePair(17, 18L, 1, "RC", "RTS", 4321L, null), new QueuePair(19, null, null, "UD", "RESET",
                        0xffff_fffeL, null)), IbPort.HW_COUNTERS_NETLINK, 1);
        assertEquals(List.of(sample), roundTrip(sample));
        String hello = new String(codec.encode(new SampleEncoder("n", "1", 1000).encode(sample, 1).get(0)),
                StandardCharsets.UTF_8);
        assertTrue(hello.contains("\"resources\":{\"summary\":{\"pd\":1,\"cq\":1,\"qp\":2},\"qps\":[{\"lqpn\":1,"
                + "\"port\":1,\"type\":\"GSI\",\"state\":\"RTS\",\"kernName\":\"ib_core\"},{\"lqpn\":17,\"rqpn\":18,"
                + "\"port\":1,\"type\":\"RC\",\"state\":\"RTS\",\"pid\":4321}"), hello);
        assertTrue(hello.contains("\"hwCountersSource\":\"netlink\""), hello);
    }

    @Test
    void workloadsSurviveTheWireAndAbsentLabelsAreLeftOut() throws FrameException {
        RdmaResources resources = resources(3, new QueuePair(17, 18L, 1, "RC", "RTS", 4321L, null)).withWorkloads(
                List.of(new PortWorkload(1, "ml", "train-0", "worker", "python3", PortWorkload.PROCESS, null, 2),
                        new PortWorkload(1, null, null, null, "[ib_core]", PortWorkload.NONE, "kernel QP", 1)));
        HostSample sample = host(resources, IbPort.HW_COUNTERS_NETLINK, 1);
        assertEquals(List.of(sample), roundTrip(sample));
        String hello = new String(codec.encode(new SampleEncoder("n", "1", 1000).encode(sample, 1).get(0)),
                StandardCharsets.UTF_8);
        assertTrue(hello.contains("\"workloads\":[{\"port\":1,\"namespace\":\"ml\",\"pod\":\"train-0\","
                + "\"container\":\"worker\",\"comm\":\"python3\",\"attribution\":\"process\",\"qps\":2},"
                + "{\"port\":1,\"comm\":\"[ib_core]\",\"attribution\":\"none\",\"reason\":\"kernel QP\",\"qps\":1}]"),
                hello);
    }

    @Test
    void aDeviceWithoutWorkloadsWritesNoFieldAndDecodesWithNone() throws FrameException {
        HostSample sample = host(resources(0), IbPort.HW_COUNTERS_NETLINK, 1);
        String hello = new String(codec.encode(new SampleEncoder("n", "1", 1000).encode(sample, 1).get(0)),
                StandardCharsets.UTF_8);
        assertFalse(hello.contains("workloads"), hello);
        assertEquals(List.of(), roundTrip(sample).get(0).devices().get(0).resources().workloads());
    }

    @Test
    void aNewQpIsALayoutChangeAndTheCountersStayValues() {
        SampleEncoder encoder = new SampleEncoder("n", "1", 1000);
        encoder.encode(host(resources(0), IbPort.HW_COUNTERS_NETLINK, 1), 1);
        assertInstanceOf(Frame.Values.class, encoder.encode(host(resources(0), IbPort.HW_COUNTERS_NETLINK, 2), 2)
                .get(0));
        assertInstanceOf(Frame.LayoutChange.class, encoder.encode(host(resources(1,
                new QueuePair(17, null, 1, "RC", "INIT", 1L, null)), IbPort.HW_COUNTERS_NETLINK, 3), 3).get(0));
    }

    @Test
    void aDeviceWithoutResourcesWritesNoFieldAndDecodesWithNone() throws FrameException {
        HostSample sample = host(null, null, 1);
        String hello = new String(codec.encode(new SampleEncoder("n", "1", 1000).encode(sample, 1).get(0)),
                StandardCharsets.UTF_8);
        assertFalse(hello.contains("\"resources\"") || hello.contains("hwCountersSource"), hello);
        HostSample decoded = roundTrip(sample).get(0);
        assertNull(decoded.devices().get(0).resources());
        assertNull(decoded.devices().get(0).ports().get(0).hwCountersSource());
    }

    @Test
    void theQpListIsBoundedWithTheRestCountedAsDropped() {
        List<QueuePair> all = IntStream.range(0, RdmaResources.MAX_QPS + 5)
                .mapToObj(i -> new QueuePair(i, null, 1, "RC", "RTS", 7L, null)).toList();
        RdmaResources bounded = RdmaResources.bounded(Map.of("qp", (long) all.size()), all);
        assertEquals(all.subList(0, RdmaResources.MAX_QPS), bounded.qps());
        assertEquals(5, bounded.qpsDropped());
        assertThrows(IllegalArgumentException.class, () -> new RdmaResources(Map.of(), all, 0));
    }

    /** A hello whose device layout carries {@code resources}. */
    private String helloWith(String resources) {
        String hello = new String(codec.encode(new SampleEncoder("n", "1", 1000).encode(host(resources(0),
                IbPort.HW_COUNTERS_NETLINK, 1), 1).get(0)), StandardCharsets.UTF_8);
        return hello.replaceFirst("\"resources\":\\{[^}]*}[^}]*}", "\"resources\":" + resources.replace("$", "\\$"));
    }

    @Test
    void forgedResourcesAreRefusedNamingTheField() {
        String qps = IntStream.range(0, RdmaResources.MAX_QPS + 1)
                .mapToObj(i -> "{\"lqpn\":" + i + ",\"type\":\"RC\",\"state\":\"RTS\"}")
                .collect(Collectors.joining(",", "[", "]"));
        Map<String, String> refusals = new LinkedHashMap<>();
        refusals.put("{\"summary\":{},\"qps\":" + qps + ",\"qpsDropped\":0}",
                "frame.layout.devices[0].resources.qps lists 257 QPs; at most 256 (the rest go in qpsDropped)");
        refusals.put("{\"summary\":{\"qp\":-1},\"qps\":[],\"qpsDropped\":0}",
                "frame.layout.devices[0].resources.summary.qp: -1 is negative");
        refusals.put("{\"summary\":{},\"qps\":[{\"lqpn\":4294967296,\"type\":\"RC\",\"state\":\"RTS\"}],"
                + "\"qpsDropped\":0}", "frame.layout.devices[0].resources.qps[0].lqpn: 4294967296 is outside "
                + "0..4294967295");
        refusals.put("{\"summary\":{},\"qps\":[],\"qpsDropped\":-3}",
                "frame.layout.devices[0].resources.qpsDropped: -3 is negative");
        refusals.put("{\"summary\":{},\"qps\":[],\"qpsDropped\":0,\"workloads\":[{\"port\":1,"
                + "\"attribution\":\"guess\",\"qps\":1}]}",
                "frame.layout.devices[0].resources.workloads[0].attribution: \"guess\" is none of device, process, none");
        refusals.put("{\"summary\":{},\"qps\":[],\"qpsDropped\":0,\"workloads\":[{\"port\":1,"
                + "\"attribution\":\"none\",\"qps\":0}]}",
                "frame.layout.devices[0].resources.workloads[0].qps: 0 is below 1");
        refusals.put("{\"summary\":{},\"qps\":[],\"qpsDropped\":0,\"workloads\":" + IntStream.range(0, 10)
                        .mapToObj(i -> "{\"port\":1,\"comm\":\"p" + i + "\",\"attribution\":\"none\",\"qps\":1}")
                        .collect(Collectors.joining(",", "[", "]")) + "}",
                "frame.layout.devices[0].resources.workloads: port 1 lists 10 workloads; at most 9 (the top 8 and the "
                        + "rest summed)");
        refusals.forEach((forged, reason) -> {
            String frame = helloWith(forged);
            assertTrue(frame.contains(forged), frame);
            FrameException e = assertThrows(FrameException.class,
                    () -> codec.decode(frame.getBytes(StandardCharsets.UTF_8)));
            assertEquals(reason, e.getMessage());
        });
    }
}
