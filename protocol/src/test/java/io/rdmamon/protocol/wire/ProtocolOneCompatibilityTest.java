package io.rdmamon.protocol.wire;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.rdmamon.protocol.model.EthtoolStats;
import io.rdmamon.protocol.model.HostSample;
import io.rdmamon.protocol.testing.FixtureHosts;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A protocol 2 reader and a protocol 1 agent. The frames in {@code /wire/v1/test-samples.jsonl} were written by
 * the protocol 1 encoder (before protocol 2 existed) for {@code FixtureHosts.codec(1, 10, 7)}, {@code host(2, 20, 8)}
 * and {@code host(3, 30, null)} (the third changes the layout), with agent version 0.9.0, the probes capability and
 * instance run-1: hello, values, values, layout, values.
 */
class ProtocolOneCompatibilityTest {
    private final FrameCodec codec = new FrameCodec(WireFormat.DEFAULT_MAX_FRAME_BYTES, "collector");

    @Test
    void framesOfAProtocolOneAgentDecodeIntoTheSamplesItRead() throws Exception {
        List<byte[]> frames = recorded();
        SampleDecoder decoder = new SampleDecoder();
        List<HostSample> samples = new ArrayList<>();
        for (byte[] frame : frames) {
            assertTrue(text(frame).startsWith("{\"v\":1,"), text(frame));
            decoder.accept(codec.decode(frame)).ifPresent(samples::add);
        }

        List<HostSample> read = List.of(FixtureHosts.codec(1, 10, 7L), FixtureHosts.codec(2, 20, 8L),
                FixtureHosts.codec(3, 30, null));
        assertEquals(read, samples);
        for (int i = 0; i < read.size(); i++) {
            assertSameTypedView(ethtool(read.get(i)), ethtool(samples.get(i)));
        }
        Frame.Hello hello = decoder.hello().orElseThrow();
        assertEquals(List.of("0.9.0", List.of(Frame.Hello.CAPABILITY_PROBES), "run-1"),
                List.of(hello.agentVersion(), hello.capabilities(), hello.instance()));
        assertNotNull(ValuesFrameParser.parse(frames.get(1)), "protocol 1 values frames take the streaming path");
    }

    /**
     * Protocol 1 carried every per-priority counter twice, raw and as a typed copy. The copies are skipped: the typed
     * view is derived from the raw statistics, so a copy that disagrees with them changes nothing.
     */
    @Test
    void theTypedCopiesOfAProtocolOneFrameAreSkippedSoTheyCannotDisagreeWithTheRawStatistics() throws Exception {
        List<byte[]> frames = recorded();
        Frame.Hello hello = (Frame.Hello) codec.decode(frames.get(0));
        int copies = hello.layout().devices().get(1).ports().get(0).ethtool().v1CopySlots();
        assertEquals(2 * 10 + 1 + 1, copies, "priorities 0 and 3, one vport RDMA statistic, the storm warnings");
        ObjectNode values = (ObjectNode) FrameCodec.MAPPER.readTree(frames.get(1));
        ArrayNode slots = (ArrayNode) values.get("values");
        int firstCopy = hello.layout().slotCount() - copies; // the last port (unreadable) has no slots
        for (int slot = firstCopy; slot < slots.size(); slot++) {
            slots.set(slot, 999_999L);
        }
        SampleDecoder decoder = new SampleDecoder();
        decoder.accept(hello);

        HostSample sample = decoder.accept(codec.decode(FrameCodec.MAPPER.writeValueAsBytes(values))).orElseThrow();

        assertEquals(FixtureHosts.codec(1, 10, 7L), sample);
        assertEquals(1000L, ethtool(sample).priorities().get(1).rxBytes());
        assertSameTypedView(ethtool(FixtureHosts.codec(1, 10, 7L)), ethtool(sample));
    }

    /** Protocol 2 sends each counter once: the layout names the raw statistics only, the values frame shrinks. */
    @Test
    void protocolTwoFramesCarryEachStatisticOnce() throws Exception {
        List<byte[]> v1 = recorded();
        List<Frame> v2 = new SampleEncoder("gpu-01", "0.9.0", 1000, List.of(Frame.Hello.CAPABILITY_PROBES), "run-1")
                .encode(FixtureHosts.codec(1, 10, 7L), 1);
        String hello = text(codec.encode(v2.get(0)));
        assertTrue(hello.startsWith("{\"v\":" + WireFormat.PROTOCOL_VERSION + ",") && hello.contains("\"ethtool\":{\"netdev\":\"eth2\",\"raw\":[")
                && !hello.contains("priorities") && !hello.contains("vportRdma"), hello);
        Frame.Values values = (Frame.Values) codec.decode(v1.get(1));
        Frame.Values valuesV2 = (Frame.Values) v2.get(1);
        assertEquals(values.values().length - 22, valuesV2.values().length);
        assertTrue(codec.encode(valuesV2).length < v1.get(1).length);
    }

    @Test
    void aProtocolOneLayoutListingMorePrioritiesThanExistIsRefusedNamingIt() throws Exception {
        ObjectNode hello = (ObjectNode) FrameCodec.MAPPER.readTree(recorded().get(0));
        ObjectNode ethtool = (ObjectNode) hello.at("/layout/devices/1/ports/0/ethtool");
        ArrayNode priorities = ethtool.putArray("priorities");
        for (int i = 0; i < 9; i++) {
            priorities.add(i);
        }

        FrameException e = assertThrows(FrameException.class,
                () -> codec.decode(FrameCodec.MAPPER.writeValueAsBytes(hello)));

        assertEquals("frame.layout.devices[1].ports[0].ethtool: 9 priorities and 1 vport RDMA statistics; "
                + "a protocol 1 layout lists at most 8 and 8", e.getMessage());
    }

    @Test
    void aFrameOfAnotherVersionIsRefusedSayingWhichAreSpoken() {
        FrameException e = assertThrows(FrameException.class,
                () -> codec.decode("{\"v\":4,\"type\":\"heartbeat\",\"ts\":1}".getBytes(StandardCharsets.UTF_8)));
        assertEquals("protocol version 4 is not supported; this collector speaks 1 to 3", e.getMessage());
    }

    private static void assertSameTypedView(EthtoolStats expected, EthtoolStats actual) {
        assertEquals(expected.priorities(), actual.priorities());
        assertEquals(expected.pfcEnabledPriorities(), actual.pfcEnabledPriorities());
        assertEquals(expected.vportRdma(), actual.vportRdma());
        assertEquals(expected.pauseStormWarningEvents(), actual.pauseStormWarningEvents());
        assertEquals(expected.pauseStormErrorEvents(), actual.pauseStormErrorEvents());
    }

    private static EthtoolStats ethtool(HostSample sample) {
        return sample.devices().get(1).ports().get(0).ethtool();
    }

    private static List<byte[]> recorded() throws IOException {
        try (InputStream in = ProtocolOneCompatibilityTest.class.getResourceAsStream("/wire/v1/test-samples.jsonl")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines()
                    .map(line -> line.getBytes(StandardCharsets.UTF_8)).toList();
        }
    }

    private static String text(byte[] frame) {
        return new String(frame, StandardCharsets.UTF_8);
    }
}
