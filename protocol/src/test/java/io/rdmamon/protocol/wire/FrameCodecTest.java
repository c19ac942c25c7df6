package io.rdmamon.protocol.wire;

import io.rdmamon.protocol.model.HostSample;
import io.rdmamon.protocol.probe.PerftestResult;
import io.rdmamon.protocol.probe.PerftestSpec;
import io.rdmamon.protocol.probe.ProbePhase;
import io.rdmamon.protocol.probe.ProbeRole;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class FrameCodecTest {
    private final FrameCodec codec = new FrameCodec();

    static Stream<Arguments> samples() {
        return Stream.of(
                Arguments.of("full host: RoCE with u64 > Long.MAX, absent counters, eRDMA without counters, "
                        + "unreadable port", TestSamples.host(1_700_000_000_123L, 42L, 7L)),
                Arguments.of("host without devices", new HostSample("n", 5L, List.of(), List.of())),
                Arguments.of("null PFC counter", TestSamples.host(1L, 0L, null)));
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
        List<Frame> first = encoder.encode(TestSamples.host(1, 10, 7L), 1);
        List<Frame> second = encoder.encode(TestSamples.host(2, 20, 8L), 2);
        List<Frame> changed = encoder.encode(TestSamples.host(3, 30, null), 3);

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
                        " Did not detect devices ", List.of(" Did not detect devices ")));
        for (Frame frame : frames) {
            assertEquals(frame, codec.decode(codec.encode(frame)));
        }
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
                        "qps 1000 is outside 1..64"));
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
                Arguments.of("wrong version", "{\"v\":2,\"type\":\"heartbeat\",\"ts\":1}",
                        "unsupported protocol version 2 (supported: 1)"),
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

    @Test
    void rejectsOversizedFramesBeforeParsing() {
        FrameCodec small = new FrameCodec(64);
        byte[] frame = new byte[65];
        Arrays.fill(frame, (byte) ' ');
        FrameException e = assertThrows(FrameException.class, () -> small.decode(frame));
        assertEquals("frame of 65 bytes exceeds the limit of 64 bytes", e.getMessage());
    }

    static Stream<Arguments> outOfOrder() {
        HostSample sample = TestSamples.host(1, 1, 1L);
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
