package io.rdmamon.protocol.wire;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.rdmamon.protocol.testing.FixtureHosts;
import io.rdmamon.protocol.model.HostSample;
import io.rdmamon.protocol.model.IbDevice;
import io.rdmamon.protocol.model.IbPort;
import io.rdmamon.protocol.model.QosConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Protocol 3's optional QoS fields: round trip, older layouts without them, hostile values refused by name. */
class QosWireTest {
    private static final String PORT = "frame.layout.devices[1].ports[0].qos";
    private final FrameCodec codec = new FrameCodec();

    /** Every part filled: trust dscp, PFC on priority 5, DSCP 40 → 5, ECN partly unknown. */
    static QosConfig full() {
        List<QosConfig.AppEntry> app = new ArrayList<>();
        IntStream.range(0, 64).forEach(d -> app.add(new QosConfig.AppEntry(5, d == 40 ? 5 : d >> 3, d)));
        app.add(new QosConfig.AppEntry(255, 2, 10));
        app.add(new QosConfig.AppEntry(3, 5, 4791));
        return new QosConfig(QosConfig.SOURCE_NETLINK, 0x0d, new QosConfig.Pfc(8, 1 << 5, 9),
                new QosConfig.Ets(true, 8, List.of(20, 80, 0, 0, 0, 0, 0, 0),
                        List.of("ets", "ets", "strict", "strict", "strict", "strict", "vendor", "???"),
                        List.of(0, 0, 0, 0, 0, 1, 0, 0)),
                app, List.of("dscp", "pcp"),
                new QosConfig.Buffer(List.of(0, 0, 0, 0, 0, 1, 0, 0), List.of(1L << 20, 1L << 19, 0L, 0L, 0L, 0L, 0L, 0L),
                        3L << 20),
                List.of(0L, 0L, 0L, 0L, 0L, 50_000_000L, 0L, 0L),
                new QosConfig.Ecn(Map.of(5, true, 0, false), Map.of(5, true), 48, 6), 160, 160);
    }

    static HostSample withQos(HostSample sample, QosConfig qos, Map<String, String> ncclConf) {
        IbDevice mlx5 = sample.devices().get(1);
        IbPort p = mlx5.ports().get(0);
        IbPort withQos = p.toBuilder().qos(qos).build();
        IbDevice device = new IbDevice(mlx5.name(), mlx5.nodeTypeId(), mlx5.nodeType(), mlx5.nodeGuid(),
                mlx5.sysImageGuid(), mlx5.fwVersion(), mlx5.hcaType(), mlx5.boardId(),
                List.of(withQos, mlx5.ports().get(1)));
        return new HostSample(sample.node(), sample.timestampMillis(), List.of(sample.devices().get(0), device),
                sample.sources(), ncclConf);
    }

    private static Map<String, String> nccl() {
        Map<String, String> conf = new LinkedHashMap<>();
        conf.put("NCCL_IB_TC", "160");
        conf.put("NCCL_SOCKET_IFNAME ", " bond0");
        return conf;
    }

    private List<HostSample> roundTrip(HostSample... samples) throws FrameException {
        SampleEncoder encoder = new SampleEncoder("gpu-01", "3.0", 1000);
        SampleDecoder decoder = new SampleDecoder();
        List<HostSample> decoded = new ArrayList<>();
        long seq = 1;
        for (HostSample sample : samples) {
            for (Frame frame : encoder.encode(sample, seq++)) {
                decoder.accept(codec.decode(codec.encode(frame))).ifPresent(decoded::add);
            }
        }
        return decoded;
    }

    @Test
    void qosAndNcclConfSurviveTheWireExactly() throws FrameException {
        HostSample sample = withQos(FixtureHosts.codec(1, 10, 7L), full(), nccl());

        assertEquals(List.of(sample), roundTrip(sample));
    }

    @Test
    void partsNotReadStayNull() throws FrameException {
        QosConfig sparse = new QosConfig(QosConfig.SOURCE_CAPTURE, null, null, null, List.of(), null, null, null,
                new QosConfig.Ecn(Map.of(), Map.of(), null, null), null, null);
        HostSample sample = withQos(FixtureHosts.codec(1, 10, 7L), sparse, null);

        HostSample decoded = roundTrip(sample).get(0);

        assertEquals(sample, decoded);
        assertNull(decoded.ncclConf());
        assertEquals("pcp", decoded.devices().get(1).ports().get(0).qos().trust());
    }

    @Test
    void aQosChangeIsALayoutChangeAndNeverInValues() throws FrameException {
        SampleEncoder encoder = new SampleEncoder("gpu-01", "3.0", 1000);
        HostSample healthy = withQos(FixtureHosts.codec(1, 10, 7L), full(), null);
        QosConfig lost = new QosConfig(QosConfig.SOURCE_NETLINK, 0x0d, new QosConfig.Pfc(8, 0, 9), full().ets(),
                List.of(), null, null, null, null, null, null);
        encoder.encode(healthy, 1);
        List<Frame> same = encoder.encode(withQos(FixtureHosts.codec(2, 20, 7L), full(), null), 2);
        List<Frame> changed = encoder.encode(withQos(FixtureHosts.codec(3, 30, 7L), lost, null), 3);

        assertEquals(1, same.size());
        String values = new String(codec.encode(same.get(0)), StandardCharsets.UTF_8);
        assertFalse(values.contains("qos") || values.contains("enabledMask"), values);
        assertInstanceOf(Frame.LayoutChange.class, changed.get(0));
        Frame.LayoutChange change = (Frame.LayoutChange) codec.decode(codec.encode(changed.get(0)));
        assertEquals(List.of(), change.layout().devices().get(1).ports().get(0).qos().pfcPriorities());
    }

    @Test
    void aProtocolTwoHelloAndLayoutWithoutTheFieldsDecode() throws FrameException {
        String port = "{\"port\":1,\"stateId\":4,\"state\":\"ACTIVE\",\"physStateId\":5,\"physState\":\"LinkUp\","
                + "\"linkLayer\":\"Ethernet\",\"netdev\":\"ens2f1np1\",\"counters\":[\"port_rcv_data\"],"
                + "\"hwCounters\":[],\"gids\":[]}";
        String layout = "{\"devices\":[{\"name\":\"mlx5_3\",\"nodeTypeId\":1,\"ports\":[" + port + "]}]}";
        String hello = "{\"v\":2,\"type\":\"hello\",\"node\":\"old-agent\",\"agentVersion\":\"2.9\","
                + "\"intervalMillis\":1000,\"layoutId\":1,\"layout\":" + layout + "}";
        String change = "{\"v\":2,\"type\":\"layout\",\"layoutId\":2,\"layout\":" + layout + "}";
        String values = "{\"v\":2,\"type\":\"values\",\"layoutId\":2,\"seq\":1,\"ts\":5,\"values\":[77],"
                + "\"absent\":[],\"sources\":[]}";

        SampleDecoder decoder = new SampleDecoder();
        decoder.accept(codec.decode(hello.getBytes(StandardCharsets.UTF_8)));
        decoder.accept(codec.decode(change.getBytes(StandardCharsets.UTF_8)));
        HostSample sample = decoder.accept(codec.decode(values.getBytes(StandardCharsets.UTF_8))).orElseThrow();

        IbPort decoded = sample.devices().get(0).ports().get(0);
        assertNull(decoded.qos());
        assertNull(sample.ncclConf());
        assertEquals(77L, decoded.counters().get("port_rcv_data"));
    }

    static Stream<Arguments> malformed() {
        return Stream.of(
                qos("DSCP beyond 63", q -> ((ArrayNode) q.get("app").get(3)).set(2, 64), PORT + ".app[3][2]: 64 is outside 0..63"),
                qos("priority beyond 7", q -> ((ArrayNode) q.get("app").get(0)).set(1, 8), PORT + ".app[0][1]: 8 is outside 0..7"),
                qos("unknown selector", q -> ((ArrayNode) q.get("app").get(0)).set(0, 9), PORT + ".app[0][0]: selector 9 is not one of"),
                qos("app entry not a triple", q -> ((ArrayNode) q.get("app")).set(0, q.arrayNode().add(5).add(3)),
                        PORT + ".app[0]: expected [selector, priority, protocol]"),
                qos("too many app entries", q -> {
                    ArrayNode app = (ArrayNode) q.get("app");
                    while (app.size() <= QosWire.MAX_APP_ENTRIES) {
                        app.addArray().add(5).add(0).add(0);
                    }
                }, PORT + ".app lists 257 entries; at most 256"),
                qos("seven-entry prio_tc", q -> ((ArrayNode) q.get("ets").get("priorityTc")).remove(7),
                        PORT + ".ets.priorityTc: expected 8 entries, got 7"),
                qos("TC beyond 7", q -> ((ArrayNode) q.get("ets").get("priorityTc")).set(2, 8),
                        PORT + ".ets.priorityTc[2]: 8 is outside 0..7"),
                qos("bandwidth beyond 100", q -> ((ArrayNode) q.get("ets").get("tcBandwidthPercent")).set(1, 101),
                        PORT + ".ets.tcBandwidthPercent[1]: 101 is outside 0..100"),
                qos("unknown TSA", q -> ((ArrayNode) q.get("ets").get("tcTsa")).set(0, "wrr"),
                        PORT + ".ets.tcTsa[0]: 'wrr' is not one of"),
                qos("PFC mask beyond a byte", q -> ((ObjectNode) q.get("pfc")).put("enabledMask", 256),
                        PORT + ".pfc.enabledMask: 256 is outside 0..255"),
                qos("ECN array of 9", q -> ((ArrayNode) q.get("ecn").get("reactionPoint")).add(true),
                        PORT + ".ecn.reactionPoint: expected 8 entries, got 9"),
                qos("ECN value a number", q -> ((ArrayNode) q.get("ecn").get("notificationPoint")).set(1, 1),
                        PORT + ".ecn.notificationPoint[1]: expected true, false or null, got number"),
                qos("CNP DSCP beyond 63", q -> ((ObjectNode) q.get("ecn")).put("cnpDscp", 64),
                        PORT + ".ecn.cnpDscp: 64 is outside 0..63"),
                qos("ToS beyond a byte", q -> q.put("trafficClass", 256), PORT + ".trafficClass: 256 is outside 0..255"),
                qos("negative buffer", q -> ((ObjectNode) q.get("buffer")).put("totalSizeBytes", -1),
                        PORT + ".buffer.totalSizeBytes: -1 is negative"),
                qos("no source", q -> q.remove("source"), PORT + ".source: missing"),
                Arguments.of("nccl value not a string", (Consumer<ObjectNode>) layout ->
                        ((ObjectNode) layout.get("ncclConf")).put("NCCL_IB_TC", 160),
                        "frame.layout.ncclConf.NCCL_IB_TC: expected a string, got number"));
    }

    private static Arguments qos(String name, Consumer<ObjectNode> edit, String expected) {
        Consumer<ObjectNode> onPort = layout -> edit.accept(
                (ObjectNode) layout.get("devices").get(1).get("ports").get(0).get("qos"));
        return Arguments.of(name, onPort, expected);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("malformed")
    void malformedQosIsRefusedNamingTheField(String name, Consumer<ObjectNode> edit, String expected) throws Exception {
        Frame hello = new SampleEncoder("gpu-01", "3.0", 1000)
                .encode(withQos(FixtureHosts.codec(1, 10, 7L), full(), nccl()), 1).get(0);
        ObjectNode json = (ObjectNode) FrameCodec.MAPPER.readTree(codec.encode(hello));
        edit.accept((ObjectNode) json.get("layout"));

        FrameException e = assertThrows(FrameException.class,
                () -> codec.decode(FrameCodec.MAPPER.writeValueAsBytes(json)));

        assertTrue(e.getMessage().startsWith(expected), e.getMessage());
    }

    @Test
    void tooManyNcclSettingsAreRefused() throws Exception {
        Map<String, String> many = new LinkedHashMap<>();
        IntStream.rangeClosed(0, QosWire.MAX_NCCL_CONF_ENTRIES).forEach(i -> many.put("K" + i, "1"));
        Frame hello = new SampleEncoder("gpu-01", "3.0", 1000)
                .encode(withQos(FixtureHosts.codec(1, 10, 7L), full(), many), 1).get(0);

        FrameException e = assertThrows(FrameException.class, () -> codec.decode(codec.encode(hello)));

        assertEquals("frame.layout.ncclConf lists 257 settings; at most 256", e.getMessage());
    }
}
