package io.rdmamon.protocol.wire;

import io.rdmamon.protocol.model.HostSample;
import io.rdmamon.protocol.model.SourceStatus;
import io.rdmamon.protocol.probe.LatencyResult;
import io.rdmamon.protocol.probe.PerftestResult;
import io.rdmamon.protocol.probe.PerftestSpec;
import io.rdmamon.protocol.probe.ProbePhase;
import io.rdmamon.protocol.probe.ProbeRole;
import io.rdmamon.protocol.testing.FixtureHosts;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class FrameCodecTest {
    private final FrameCodec codec = new FrameCodec();

    static Stream<Arguments> samples() {
        return Stream.of(
                Arguments.of("full host: RoCE with u64 > Long.MAX, absent counters, eRDMA without counters, "
                        + "unreadable port", FixtureHosts.codec(1_700_000_000_123L, 42L, 7L)),
                Arguments.of("host without devices", new HostSample("n", 5L, List.of(), List.of())),
                Arguments.of("null PFC counter", FixtureHosts.codec(1L, 0L, null)));
    }

    /** Two nodes of one model: the collector keeps one copy of their counter names, not one per node. */
    @Test
    void twoNodesLayoutsShareTheirNameLists() throws FrameException {
        List<HostLayout> layouts = new ArrayList<>();
        for (String node : List.of("gpu-01", "gpu-02")) {
            Frame hello = new SampleEncoder(node, "1", 1000).encode(FixtureHosts.codec(1, 10, 7L), 1).get(0);
            layouts.add(((Frame.Hello) codec.decode(codec.encode(hello))).layout());
        }
        int device = IntStream.range(0, layouts.get(0).devices().size())
                .filter(d -> !layouts.get(0).devices().get(d).ports().get(0).counterNames().isEmpty())
                .findFirst().orElseThrow();
        HostLayout.PortLayout first = layouts.get(0).devices().get(device).ports().get(0);
        HostLayout.PortLayout second = layouts.get(1).devices().get(device).ports().get(0);
        assertFalse(first.hwCounterNames().isEmpty());
        assertSame(first.counterNames(), second.counterNames());
        assertSame(first.hwCounterNames(), second.hwCounterNames());
        assertSame(first.ethtool().rawNames(), second.ethtool().rawNames());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("samples")
    void samplesSurviveEncoderCodecAndDecoderExactly(String name, HostSample sample) throws FrameException {
        SampleEncoder encoder = new SampleEncoder(sample.node(), "1.2.3", 1000);
        SampleDecoder decoder = new SampleDecoder();
        List<HostSample> decoded = new ArrayList<>();
        for (Frame frame : encoder.encode(sample, 1)) {
            decoder.accept(codec.decode(codec.encode(frame))).ifPresent(decoded::add);
        }
        assertEquals(List.of(sample), decoded);
        assertEquals("1.2.3", decoder.hello().orElseThrow().agentVersion());
    }

    @Test
    void valuesFramesCarryNumbersOnlyAndLayoutChangesAreAnnounced() throws FrameException {
        SampleEncoder encoder = new SampleEncoder("gpu-01", "1", 1000);
        SampleDecoder decoder = new SampleDecoder();
        List<Frame> first = encoder.encode(FixtureHosts.codec(1, 10, 7L), 1);
        List<Frame> second = encoder.encode(FixtureHosts.codec(2, 20, 8L), 2);
        List<Frame> changed = encoder.encode(FixtureHosts.codec(3, 30, null), 3);

        assertInstanceOf(Frame.Hello.class, first.get(0));
        assertEquals(1, second.size());
        String valuesJson = new String(codec.encode(second.get(0)), StandardCharsets.UTF_8);
        assertTrue(!valuesJson.contains("port_rcv_data") && valuesJson.contains("18446744073709551615"), valuesJson);
        // rx_prio3_pause vanished from the raw statistics (PFC disabled): a new layout precedes the values
        assertInstanceOf(Frame.LayoutChange.class, changed.get(0));
        assertEquals(2, ((Frame.Values) changed.get(1)).layoutId());

        List<Long> rcvData = new ArrayList<>();
        for (Frame frame : concat(first, second, changed)) {
            decoder.accept(codec.decode(codec.encode(frame)))
                    .ifPresent(s -> rcvData.add(s.devices().get(1).ports().get(0).counters().get("port_rcv_data")));
        }
        assertEquals(List.of(10L, 20L, 30L), rcvData);
    }

    @Test
    void helloCarriesCapabilitiesAndAnOldHelloHasNone() throws FrameException {
        SampleEncoder probing = new SampleEncoder("gpu-01", "1", 1000, List.of(Frame.Hello.CAPABILITY_PROBES));
        Frame.Hello hello = (Frame.Hello) probing.encode(FixtureHosts.codec(1, 10, 7L), 1).get(0);
        Frame.Hello decoded = (Frame.Hello) codec.decode(codec.encode(hello));
        assertEquals(hello, decoded);
        assertTrue(decoded.accepts(Frame.Hello.CAPABILITY_PROBES));

        // an agent that predates capabilities sends no such field: it accepts nothing beyond sampling
        Frame.Hello plain = (Frame.Hello) new SampleEncoder("gpu-01", "1", 1000).encode(FixtureHosts.codec(1, 10, 7L), 1).get(0);
        String json = new String(codec.encode(plain), StandardCharsets.UTF_8);
        assertTrue(!json.contains("capabilities"), json);
        assertEquals(List.of(), ((Frame.Hello) codec.decode(json.getBytes(StandardCharsets.UTF_8))).capabilities());
    }

    @Test
    void heartbeatAndAckRoundTrip() throws FrameException {
        assertEquals(new Frame.Heartbeat(77L), codec.decode(codec.encode(new Frame.Heartbeat(77L))));
        assertEquals(new Frame.Ack(9L), codec.decode(codec.encode(new Frame.Ack(9L))));
    }

    @Test
    void probeFramesRoundTrip() throws FrameException {
        PerftestSpec spec = new PerftestSpec("mlx5_1", 1, 3, 65_536, 5, 2, true);
        List<Frame> frames = List.of(
                new Frame.ProbeStart("p-1", ProbeRole.SERVER, spec, null, 0, 15_000),
                new Frame.ProbeStart("p-1", ProbeRole.CLIENT, new PerftestSpec("mlx5_0", 1, null, 2, 1, 1, false),
                        "10.0.0.7", 18_515, 15_000),
                new Frame.ProbeCancel("p-1", "cancelled by operator alice"),
                new Frame.ProbeReport("p-1", ProbeRole.SERVER, ProbePhase.LISTENING, 40_001, null, null, null, List.of()),
                new Frame.ProbeReport("p-1", ProbeRole.CLIENT, ProbePhase.DONE, 0,
                        new PerftestResult(65_536, 5000, 92.39e9, 92.38e9, 176_196), 0, null,
                        List.of(" 65536      5000             92.39              92.38              0.176196")),
                new Frame.ProbeReport("p-1", ProbeRole.CLIENT, ProbePhase.FAILED, 0, null, 1,
                        " Did not detect devices ", List.of(" Did not detect devices ")),
                new Frame.ProbeStart("pm-7", ProbeRole.CLIENT, PerftestSpec.latency("rxe0", 1, 1, 64, 20, 30, 18, 106),
                        "10.77.0.2", 18_600, 35_000),
                new Frame.ProbeReport("pm-7", ProbeRole.CLIENT, ProbePhase.DONE, 0, null,
                        new LatencyResult(64, 20, List.of(5_120L, 4_980L, 1_073_000_000L)), 0, null, List.of()),
                new Frame.ProbeReport("pm-8", ProbeRole.CLIENT, ProbePhase.DONE, 0, null, LatencyResult.untimed(64, 20,
                        "perftest could not time the round trips: Correlation coefficient r^2: 0.14 < 0.9"), 0, null,
                        List.of()));
        for (Frame frame : frames) {
            assertEquals(frame, codec.decode(codec.encode(frame)));
        }
    }

    @Test
    void aLatencyProbeSaysItsProgramAndABandwidthProbeStaysAsAgentsBeforeItReadIt() throws FrameException {
        String latency = new String(codec.encode(new Frame.ProbeStart("pm-1", ProbeRole.SERVER,
                PerftestSpec.latency("rxe0", 1, null, 64, 20, 30, null, null), null, 0, 35_000)), StandardCharsets.UTF_8);
        assertTrue(latency.contains("\"test\":\"send_lat\"") && latency.contains("\"iterations\":20"), latency);
        String bandwidth = new String(codec.encode(new Frame.ProbeStart("p-1", ProbeRole.SERVER,
                new PerftestSpec("mlx5_0", 1, null, 65_536, 5, 1, false), null, 0, 15_000)), StandardCharsets.UTF_8);
        assertFalse(bandwidth.contains("\"test\"") || bandwidth.contains("iterations") || bandwidth.contains("qpTimeout"),
                bandwidth);
    }

    static Stream<Arguments> rejectedProbeFrames() {
        String spec = "\"spec\":{\"device\":\"mlx5_0\",\"port\":1,\"sizeBytes\":65536,\"durationSeconds\":5,"
                + "\"qps\":1,\"bidirectional\":false}";
        return Stream.of(
                Arguments.of("device with a path", "{\"v\":1,\"type\":\"probe-start\",\"probeId\":\"p1\",\"role\":\"server\","
                        + "\"tcpPort\":0,\"timeoutMillis\":1000," + spec.replace("mlx5_0", "../etc") + "}",
                        "device name '../etc' is not a valid RDMA device name"),
                Arguments.of("client without address", "{\"v\":1,\"type\":\"probe-start\",\"probeId\":\"p1\",\"role\":\"client\","
                        + "\"tcpPort\":18515,\"timeoutMillis\":1000," + spec + "}", "a client probe needs the server's address"),
                Arguments.of("unknown role", "{\"v\":1,\"type\":\"probe-start\",\"probeId\":\"p1\",\"role\":\"both\","
                        + "\"tcpPort\":0,\"timeoutMillis\":1000," + spec + "}", "unknown probe role 'both'"),
                Arguments.of("probe id with spaces", "{\"v\":1,\"type\":\"probe-cancel\",\"probeId\":\"a b\",\"reason\":\"x\"}",
                        "probe id 'a b' must match"),
                Arguments.of("unknown phase", "{\"v\":1,\"type\":\"probe-report\",\"probeId\":\"p1\",\"role\":\"client\","
                        + "\"phase\":\"exploded\",\"tcpPort\":0,\"output\":[]}", "unknown probe phase 'exploded'"),
                Arguments.of("too many QPs", "{\"v\":1,\"type\":\"probe-start\",\"probeId\":\"p1\",\"role\":\"server\","
                        + "\"tcpPort\":0,\"timeoutMillis\":1000," + spec.replace("\"qps\":1", "\"qps\":1000") + "}",
                        "qps 1000 is outside 1..64"),
                Arguments.of("unknown test", "{\"v\":1,\"type\":\"probe-start\",\"probeId\":\"p1\",\"role\":\"server\","
                        + "\"tcpPort\":0,\"timeoutMillis\":1000," + spec.replace("\"qps\":1", "\"qps\":1,\"test\":\"read_lat\"")
                        + "}", "unknown perftest test 'read_lat'"),
                Arguments.of("latency without iterations", "{\"v\":1,\"type\":\"probe-start\",\"probeId\":\"p1\","
                        + "\"role\":\"server\",\"tcpPort\":0,\"timeoutMillis\":1000,"
                        + spec.replace("\"qps\":1", "\"qps\":1,\"test\":\"send_lat\"") + "}", "iterations 0 is outside 5..10000"),
                Arguments.of("QP timeout out of range", "{\"v\":1,\"type\":\"probe-start\",\"probeId\":\"p1\","
                        + "\"role\":\"server\",\"tcpPort\":0,\"timeoutMillis\":1000,"
                        + spec.replace("\"qps\":1", "\"qps\":1,\"qpTimeout\":40") + "}", "qpTimeout 40 is outside 0..31"),
                Arguments.of("negative round trip", "{\"v\":1,\"type\":\"probe-report\",\"probeId\":\"p1\","
                        + "\"role\":\"client\",\"phase\":\"done\",\"tcpPort\":0,\"output\":[],"
                        + "\"latency\":{\"sizeBytes\":64,\"iterations\":5,\"rttNanos\":[5000,-1]}}",
                        "negative round trip -1 ns"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rejectedProbeFrames")
    void badProbeFramesAreRefusedWithTheReason(String name, String json, String reason) {
        FrameException e = assertThrows(FrameException.class, () -> codec.decode(json.getBytes(StandardCharsets.UTF_8)));
        assertTrue(e.getMessage().contains(reason), e.getMessage());
    }

    static Stream<Arguments> rejectedFrames() {
        String values = "{\"v\":1,\"type\":\"values\",\"layoutId\":1,\"seq\":1,\"ts\":1,\"absent\":[],\"sources\":[],\"values\":";
        return Stream.of(
                Arguments.of("empty", "", "empty frame"),
                Arguments.of("truncated", "{\"v\":1,\"type\":\"heartb", "truncated frame"),
                Arguments.of("not JSON", "hello there", "malformed frame"),
                Arguments.of("not an object", "[1,2]", "malformed frame: not a JSON object"),
                Arguments.of("trailing garbage", "{\"v\":1,\"type\":\"heartbeat\",\"ts\":1} x", "malformed frame"),
                Arguments.of("no version", "{\"type\":\"heartbeat\",\"ts\":1}", "frame.v: missing"),
                Arguments.of("newer version", "{\"v\":4,\"type\":\"heartbeat\",\"ts\":1}",
                        "protocol version 4 is not supported; this build speaks 1 to 3"),
                Arguments.of("version 0", "{\"v\":0,\"type\":\"heartbeat\",\"ts\":1}",
                        "protocol version 0 is not supported; this build speaks 1 to 3"),
                Arguments.of("unknown type", "{\"v\":1,\"type\":\"bye\"}", "unknown frame type 'bye'"),
                Arguments.of("ill-typed field", "{\"v\":1,\"type\":\"ack\",\"seq\":\"7\"}",
                        "frame.seq: expected a 64-bit integer, got string"),
                Arguments.of("negative counter", values + "[1,-5]}", "frame.values[1]: -5 is outside the unsigned 64-bit range"),
                Arguments.of("counter above u64", values + "[18446744073709551616]}",
                        "frame.values[0]: 18446744073709551616 is outside the unsigned 64-bit range"),
                Arguments.of("absent slot out of range",
                        values.replace("\"absent\":[]", "\"absent\":[4]") + "[1]}", "frame.absent: slot 4 outside 0..0"),
                Arguments.of("duplicate key", "{\"v\":1,\"v\":1,\"type\":\"ack\",\"seq\":1}", "malformed frame: Duplicate field 'v'"),
                Arguments.of("layout port without number",
                        "{\"v\":1,\"type\":\"layout\",\"layoutId\":2,\"layout\":{\"devices\":[{\"name\":\"mlx5_0\","
                                + "\"nodeTypeId\":1,\"ports\":[{\"stateId\":4}]}]}}",
                        "frame.layout.devices[0].ports[0].port: missing"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rejectedFrames")
    void rejectsBadFramesWithAReason(String name, String frame, String reason) {
        FrameException e = assertThrows(FrameException.class,
                () -> codec.decode(frame.getBytes(StandardCharsets.UTF_8)));
        assertTrue(e.getMessage().startsWith(reason), () -> "reason was: " + e.getMessage());
    }

    /** A well-formed values frame, as the agent writes it, with {@code values} and {@code sources} as given. */
    private static String valuesFrame(String values, String sources) {
        return "{\"v\":1,\"type\":\"values\",\"layoutId\":3,\"seq\":41,\"ts\":1700000000123,\"values\":" + values
                + ",\"absent\":[1],\"sources\":" + sources + "}";
    }

    private static final String VALUES = "[5,0,18446744073709551615,9223372036854775808,9223372036854775807]";
    private static final String SOURCES = "[{\"source\":\"sysfs\",\"subject\":\"mlx5_0\",\"success\":true},"
            + "{\"source\":\"ethtool\",\"subject\":\"eth9\",\"success\":false,\"error\":\"ioctl: No such device\"}]";

    static Stream<Arguments> valuesFramesTheStreamingPathTakes() {
        String frame = valuesFrame(VALUES, SOURCES);
        Frame.Values expected = new Frame.Values(3, 41, 1_700_000_000_123L,
                new long[] {5, 0, -1L, Long.MIN_VALUE, Long.MAX_VALUE}, bits(1),
                List.of(SourceStatus.ok("sysfs", "mlx5_0"),
                        SourceStatus.failed("ethtool", "eth9", "ioctl: No such device")));
        return Stream.of(
                Arguments.of("as a protocol 1 agent writes it", frame, expected),
                Arguments.of("as a protocol 2 agent writes it", frame.replace("\"v\":1", "\"v\":2"), expected),
                Arguments.of("fields in reverse order", "{\"sources\":" + SOURCES + ",\"absent\":[1],\"values\":" + VALUES
                        + ",\"ts\":1700000000123,\"seq\":41,\"layoutId\":3,\"type\":\"values\",\"v\":1}", expected),
                Arguments.of("whitespace around tokens", " \n" + frame.replace(",\"", " ,\t\"").replace("\":", "\" : ") + "\n ", expected),
                Arguments.of("explicit null error", frame.replace("\"success\":true}", "\"success\":true,\"error\":null}"),
                        expected),
                Arguments.of("minus zero, repeated absent slot",
                        frame.replace("[5,0,", "[5,-0,").replace("\"absent\":[1]", "\"absent\":[1,1]"), expected),
                Arguments.of("an unsupported source, as a protocol 3 agent writes it",
                        frame.replace("\"v\":1", "\"v\":3").replace("\"success\":true}", "\"success\":true,"
                                + "\"unsupported\":\"no DCB support on eth1 (EOPNOTSUPP)\"}"),
                        new Frame.Values(3, 41, 1_700_000_000_123L, expected.values(), bits(1),
                                List.of(SourceStatus.unsupported("sysfs", "mlx5_0",
                                                "no DCB support on eth1 (EOPNOTSUPP)"),
                                        SourceStatus.failed("ethtool", "eth9", "ioctl: No such device")))),
                Arguments.of("explicit null unsupported",
                        frame.replace("\"success\":true}", "\"success\":true,\"unsupported\":null}"), expected),
                Arguments.of("nothing absent, no sources, no values",
                        valuesFrame("[]", "[]").replace("\"absent\":[1]", "\"absent\":[]"),
                        new Frame.Values(3, 41, 1_700_000_000_123L, new long[0], new BitSet(), List.of())));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("valuesFramesTheStreamingPathTakes")
    void wellFormedValuesFramesTakeTheStreamingPathAndDecodeAsTheTreeDoes(String name, String json, Frame expected)
            throws FrameException {
        byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
        assertEquals(expected, ValuesFrameParser.parse(bytes) == null
                ? null : codec.decode(bytes), "the streaming path must take this frame");
        assertEquals(expected, codec.decodeWithTree(bytes));
    }

    static Stream<Arguments> valuesFramesTheTreeDecides() {
        String frame = valuesFrame(VALUES, SOURCES);
        List<Arguments> cases = new ArrayList<>(List.of(
                Arguments.of("negative value", valuesFrame("[1,-5]", "[]"), "frame.values[1]: -5 is outside"),
                Arguments.of("huge negative value", valuesFrame("[1,-18446744073709551615]", "[]"), "frame.values[1]: -1844"),
                Arguments.of("value 2^64", valuesFrame("[1,18446744073709551616]", "[]"), "frame.values[1]: 1844"),
                Arguments.of("float value", valuesFrame("[1,2.5]", "[]"), "frame.values[1]: expected an unsigned integer"),
                Arguments.of("integral float value", valuesFrame("[1.0,2]", "[]"), "frame.values[0]: expected an unsigned"),
                Arguments.of("exponent value", valuesFrame("[1,1e3]", "[]"), "frame.values[1]: expected an unsigned"),
                Arguments.of("null value", valuesFrame("[1,null]", "[]"), "frame.values[1]: expected an unsigned"),
                Arguments.of("string value", valuesFrame("[1,\"2\"]", "[]"), "frame.values[1]: expected an unsigned"),
                Arguments.of("values not an array", valuesFrame("{}", "[]"), "frame.values: expected an array, got object"),
                Arguments.of("values null", valuesFrame("null", "[]"), "frame.values: missing"),
                Arguments.of("duplicated top-level key", frame.replace("\"seq\":41", "\"seq\":41,\"seq\":42"),
                        "malformed frame: Duplicate field 'seq'"),
                Arguments.of("duplicated key in a source", frame.replace("\"success\":true}", "\"success\":true,\"success\":true}"),
                        "malformed frame: Duplicate field 'success'"),
                Arguments.of("trailing object", frame + " {}", "malformed frame"),
                Arguments.of("trailing garbage", frame + " x", "malformed frame"),
                Arguments.of("truncated inside the values", frame.substring(0, frame.indexOf("18446")),
                        "malformed frame: Unexpected end-of-input within/between Array entries"),
                Arguments.of("not closed", frame.substring(0, frame.length() - 1), "truncated frame"),
                Arguments.of("version 4", frame.replace("\"v\":1", "\"v\":4"), "protocol version 4 is not supported"),
                Arguments.of("version 0", frame.replace("\"v\":1", "\"v\":0"), "protocol version 0 is not supported"),
                Arguments.of("layoutId beyond 32 bits", frame.replace("\"layoutId\":3", "\"layoutId\":2147483648"),
                        "frame.layoutId: expected a 32-bit integer, got number"),
                Arguments.of("seq beyond 64 bits", frame.replace("\"seq\":41", "\"seq\":9223372036854775808"),
                        "frame.seq: expected a 64-bit integer, got number"),
                Arguments.of("ts as a string", frame.replace("\"ts\":1700000000123", "\"ts\":\"1\""),
                        "frame.ts: expected a 64-bit integer, got string"),
                Arguments.of("absent slot beyond the values", frame.replace("\"absent\":[1]", "\"absent\":[5]"),
                        "frame.absent: slot 5 outside 0..4"),
                Arguments.of("negative absent slot", frame.replace("\"absent\":[1]", "\"absent\":[-1]"),
                        "frame.absent: slot -1 outside 0..4"),
                Arguments.of("float absent slot", frame.replace("\"absent\":[1]", "\"absent\":[1.0]"),
                        "frame.absent[0]: expected a 32-bit integer, got number"),
                Arguments.of("source success as a string", frame.replace("\"success\":true", "\"success\":\"true\""),
                        "frame.sources[0].success: expected true or false, got string"),
                Arguments.of("source error as a number", frame.replace("\"error\":\"ioctl: No such device\"", "\"error\":7"),
                        "frame.sources[1].error: expected a string, got number"),
                Arguments.of("source unsupported as a number", frame.replace("\"success\":true}",
                        "\"success\":true,\"unsupported\":7}"),
                        "frame.sources[0].unsupported: expected a string, got number"),
                Arguments.of("a failed source that is also unsupported", frame.replace("\"error\":",
                        "\"unsupported\":\"no DCB\",\"error\":"),
                        "frame.sources[1]: ethtool eth9: unsupported is neither failed nor an error"),
                Arguments.of("source not an object", valuesFrame(VALUES, "[\"sysfs\"]"),
                        "frame.sources[0]: expected an object, got string"),
                Arguments.of("source without subject", frame.replace("\"subject\":\"mlx5_0\",", ""),
                        "frame.sources[0].subject: missing"),
                // accepted by the tree, which ignores fields it does not know; the streaming path leaves them to it
                Arguments.of("unknown top-level field", frame.replace("\"seq\":41", "\"seq\":41,\"extra\":[1,{}]"), null),
                Arguments.of("unknown field in a source", frame.replace("\"success\":true}", "\"success\":true,\"x\":1}"), null),
                Arguments.of("a heartbeat carrying values", frame.replace("\"type\":\"values\"", "\"type\":\"heartbeat\""),
                        null)));
        for (String field : List.of("v", "type", "layoutId", "seq", "ts", "values", "absent", "sources")) {
            String value = "\"" + field + "\":(\\[[^]]*]|\"[a-z]*\"|[0-9]+)";
            String without = field.equals("sources") ? frame.replaceFirst("," + value, "") : frame.replaceFirst(value + ",", "");
            cases.add(Arguments.of("without " + field, without, "frame." + field + ": missing"));
            cases.add(Arguments.of(field + " null", frame.replaceFirst(value, "\"" + field + "\":null"),
                    "frame." + field + ": missing"));
        }
        return cases.stream();
    }

    /**
     * The streaming path declines everything that is not a well-formed values frame, and the codec then
     * answers exactly as the tree path does: the same frame, or the same refusal.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("valuesFramesTheTreeDecides")
    void otherValuesFramesAreLeftToTheTreeAndAnsweredAsBefore(String name, String json, String reason) {
        byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
        assertNull(ValuesFrameParser.parse(bytes));
        String viaCodec = outcome(() -> codec.decode(bytes));
        assertEquals(outcome(() -> codec.decodeWithTree(bytes)), viaCodec);
        if (reason == null) {
            assertTrue(viaCodec.startsWith("frame: "), viaCodec);
        } else {
            assertTrue(viaCodec.startsWith("refused: " + reason), viaCodec);
        }
    }

    private interface Decoding {
        Frame decode() throws FrameException;
    }

    private static String outcome(Decoding decoding) {
        try {
            return "frame: " + decoding.decode();
        } catch (FrameException e) {
            return "refused: " + e.getMessage();
        }
    }

    private static BitSet bits(int... slots) {
        BitSet bits = new BitSet();
        IntStream.of(slots).forEach(bits::set);
        return bits;
    }

    @Test
    void helloCarriesTheAgentInstanceAndAnOldHelloHasNone() throws FrameException {
        Frame.Hello hello = (Frame.Hello) new SampleEncoder("gpu-01", "1", 1000, List.of(), "run-7f3a")
                .encode(FixtureHosts.codec(1, 10, 7L), 1).get(0);
        assertEquals("run-7f3a", ((Frame.Hello) codec.decode(codec.encode(hello))).instance());
        Frame.Hello plain = (Frame.Hello) new SampleEncoder("gpu-01", "1", 1000).encode(FixtureHosts.codec(1, 10, 7L), 1).get(0);
        String json = new String(codec.encode(plain), StandardCharsets.UTF_8);
        assertTrue(!json.contains("instance"), json);
        assertNull(((Frame.Hello) codec.decode(json.getBytes(StandardCharsets.UTF_8))).instance());
    }

    /** 98 bytes used to make the streaming path allocate a 256 MiB BitSet before the slot's range check. */
    @Test
    void anAbsentSlotFarBeyondTheValuesIsRefusedWithoutAllocatingForIt() {
        byte[] frame = ("{\"v\":1,\"type\":\"values\",\"layoutId\":1,\"seq\":1,\"ts\":1,\"values\":[1],"
                + "\"absent\":[2147483647],\"sources\":[]}").getBytes(StandardCharsets.UTF_8);
        com.sun.management.ThreadMXBean threads =
                (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
        long before = threads.getCurrentThreadAllocatedBytes();
        FrameException e = assertThrows(FrameException.class, () -> codec.decode(frame));
        long allocated = threads.getCurrentThreadAllocatedBytes() - before;
        assertEquals("frame.absent: slot 2147483647 outside 0..0", e.getMessage());
        assertTrue(allocated < 4 * 1024 * 1024, "decoding 98 bytes allocated " + allocated + " bytes");
    }

    /** A 512 KiB type used to be quoted whole into the reason, which the collector logged and cut quadratically. */
    @Test
    void reasonsQuoteWireTextBoundedAndPrintable() {
        String type = "x".repeat(512 * 1024);
        FrameException e = assertThrows(FrameException.class, () -> codec.decode(
                ("{\"v\":1,\"type\":\"" + type + "\"}").getBytes(StandardCharsets.UTF_8)));
        assertEquals("unknown frame type '" + "x".repeat(64) + "… (524288 chars)'", e.getMessage());

        FrameException forged = assertThrows(FrameException.class, () -> codec.decode(
                "{\"v\":1,\"type\":\"a\\nWARNING forged\\u001b[2J\"}".getBytes(StandardCharsets.UTF_8)));
        assertEquals("unknown frame type 'a\\u000aWARNING forged\\u001b[2J'", forged.getMessage());

        String long_ = new FrameException("y".repeat(100_000)).getMessage();
        assertEquals(FrameException.MAX_REASON_CHARS + "… (100000 chars)".length(), long_.length());
    }

    @Test
    void rejectsOversizedFramesBeforeParsing() {
        FrameCodec small = new FrameCodec(64);
        byte[] frame = new byte[65];
        Arrays.fill(frame, (byte) ' ');
        FrameException e = assertThrows(FrameException.class, () -> small.decode(frame));
        assertEquals("frame of 65 bytes exceeds the limit of 64 bytes", e.getMessage());
    }

    static Stream<Arguments> outOfOrder() {
        HostSample sample = FixtureHosts.codec(1, 1, 1L);
        List<Frame> frames = new SampleEncoder("gpu-01", "1", 1000).encode(sample, 1);
        Frame.Values values = (Frame.Values) frames.get(1);
        long[] shorter = Arrays.copyOf(values.values(), values.values().length - 1);
        return Stream.of(
                Arguments.of("values before hello", List.of(values), "expected a hello frame first, got values"),
                Arguments.of("second hello", List.of(frames.get(0), frames.get(0)), "second hello on one connection"),
                Arguments.of("unknown layout", List.of(frames.get(0), new Frame.Values(5, 1, 1, values.values(),
                        values.absent(), List.of())), "values frame seq 1 refers to layout 5 but the current layout is 1"),
                Arguments.of("value count mismatch", List.of(frames.get(0), new Frame.Values(1, 1, 1, shorter,
                        new java.util.BitSet(), List.of())), "values frame seq 1 carries "),
                Arguments.of("ack from an agent", List.of(frames.get(0), new Frame.Ack(1)), "ack frames flow"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("outOfOrder")
    void decoderRejectsFramesOutOfOrder(String name, List<Frame> frames, String reason) {
        SampleDecoder decoder = new SampleDecoder();
        FrameException e = assertThrows(FrameException.class, () -> {
            for (Frame frame : frames) {
                decoder.accept(frame);
            }
        });
        assertTrue(e.getMessage().startsWith(reason), () -> "reason was: " + e.getMessage());
    }

    @SafeVarargs
    private static List<Frame> concat(List<Frame>... lists) {
        return Stream.of(lists).flatMap(List::stream).toList();
    }
}
