package io.rdmamon.protocol.wire;

import io.rdmamon.protocol.model.HostSample;
import io.rdmamon.protocol.model.IbDevice;
import io.rdmamon.protocol.model.IbPort;
import io.rdmamon.protocol.testing.FixtureHosts;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Protocol 3's netdev counters: one value slot each after the ethtool ones; an older layout has none. */
class NetdevCountersWireTest {
    private final FrameCodec codec = new FrameCodec(WireFormat.DEFAULT_MAX_FRAME_BYTES);

    @Test
    void netdevCountersSurviveTheWireWithAbsentValuesAndU64s() throws FrameException {
        Map<String, Long> counters = new LinkedHashMap<>();
        counters.put("carrier_changes", -2L); // 2^64 - 2 as an unsigned value
        counters.put("carrier_up_count", null);
        counters.put("carrier_down_count", 5L);
        HostSample sample = host(counters);

        List<HostSample> decoded = roundTrip(sample);

        assertEquals(List.of(sample), decoded);
        assertEquals(counters, decoded.get(0).devices().get(0).ports().get(0).netdevCounters());
    }

    @Test
    void theNetdevCounterSlotsFollowTheEthtoolOnesAndTheLayoutNamesThem() throws FrameException {
        HostSample sample = FixtureHosts.codec(1, 10, 7L);
        IbPort roce = sample.devices().get(1).ports().get(0);
        IbPort withCounters = roce.toBuilder().netdevCounters(Map.of("carrier_down_count", 77L)).build();
        IbDevice mlx5 = sample.devices().get(1);
        HostSample changed = new HostSample(sample.node(), 2, List.of(sample.devices().get(0), new IbDevice(mlx5.name(),
                mlx5.nodeTypeId(), mlx5.nodeType(), mlx5.nodeGuid(), mlx5.sysImageGuid(), mlx5.fwVersion(),
                mlx5.hcaType(), mlx5.boardId(), List.of(withCounters, mlx5.ports().get(1)))), sample.sources());

        SampleEncoder encoder = new SampleEncoder("gpu-01", "1", 1000);
        List<Frame> first = encoder.encode(sample, 1);
        List<Frame> second = encoder.encode(changed, 2);

        Frame.Values before = (Frame.Values) first.get(1);
        Frame.Values after = (Frame.Values) second.get(1);
        Frame.LayoutChange layout = assertInstanceOf(Frame.LayoutChange.class, second.get(0));
        assertTrue(new String(codec.encode(layout), StandardCharsets.UTF_8).contains("\"netdevCounters\":[\"carrier_down_count\"]"));
        int roceEnd = HostLayout.of(sample).devices().get(0).ports().get(0).slotCount()
                + HostLayout.of(sample).devices().get(1).ports().get(0).slotCount();
        assertEquals(before.values().length + 1, after.values().length);
        assertEquals(77L, after.values()[roceEnd]);
        String hello = new String(codec.encode(first.get(0)), StandardCharsets.UTF_8);
        assertTrue(!hello.contains("netdevCounters"), "a port without netdev counters writes no field: " + hello);
    }

    /** Version 3 only adds optional fields: a version 2 hello and values frame decode unchanged. */
    @Test
    void aProtocolTwoHelloAndValuesDecodeWithoutNetdevCounters() throws FrameException {
        String hello = "{\"v\":2,\"type\":\"hello\",\"node\":\"n2\",\"agentVersion\":\"0.8\",\"intervalMillis\":1000,"
                + "\"layoutId\":1,\"layout\":{\"devices\":[{\"name\":\"mlx5_3\",\"nodeTypeId\":1,\"nodeType\":\"CA\","
                + "\"nodeGuid\":null,\"sysImageGuid\":null,\"fwVersion\":\"20.1\",\"hcaType\":null,\"boardId\":null,"
                + "\"ports\":[{\"port\":2,\"stateId\":4,\"state\":\"ACTIVE\",\"physStateId\":5,\"physState\":\"LinkUp\","
                + "\"rate\":\"200 Gb/sec (4X HDR)\",\"rateBytesPerSecond\":25000000000,\"linkLayer\":\"Ethernet\","
                + "\"lid\":\"0x0\",\"netdev\":\"enp9s0\",\"counters\":[\"link_downed\"],\"hwCounters\":[],\"gids\":[],"
                + "\"ethtool\":{\"netdev\":\"enp9s0\",\"raw\":[\"rx_bytes\"]}}]}]}}";
        String values = "{\"v\":2,\"type\":\"values\",\"layoutId\":1,\"seq\":1,\"ts\":9,\"values\":[3,400],"
                + "\"absent\":[],\"sources\":[]}";
        SampleDecoder decoder = new SampleDecoder();

        decoder.accept(codec.decode(hello.getBytes(StandardCharsets.UTF_8)));
        HostSample sample = decoder.accept(codec.decode(values.getBytes(StandardCharsets.UTF_8))).orElseThrow();

        IbPort port = sample.devices().get(0).ports().get(0);
        assertEquals(Map.of("link_downed", 3L), port.counters());
        assertEquals(400L, port.ethtool().raw().get("rx_bytes"));
        assertEquals(Map.of(), port.netdevCounters());
    }

    private static HostSample host(Map<String, Long> netdevCounters) {
        IbPort port = IbPort.builder().port(1).stateId(4).state("ACTIVE").physStateId(5).physState("LinkUp")
                .rate("25 Gb/sec (1X EDR)").rateBytesPerSecond(3_125_000_000L).linkLayer("Ethernet").lid("0x0")
                .netdev("enp3s0f1").counters(Map.of("link_downed", 2L)).netdevCounters(netdevCounters).build();
        return new HostSample("n1", 5, List.of(new IbDevice("rocep3s0f1", 1, "CA", null, null, "1", null, null,
                List.of(port))), List.of());
    }

    private List<HostSample> roundTrip(HostSample sample) throws FrameException {
        SampleEncoder encoder = new SampleEncoder(sample.node(), "1", 1000);
        SampleDecoder decoder = new SampleDecoder();
        List<HostSample> decoded = new ArrayList<>();
        for (Frame frame : encoder.encode(sample, 1)) {
            decoder.accept(codec.decode(codec.encode(frame))).ifPresent(decoded::add);
        }
        return decoded;
    }
}
