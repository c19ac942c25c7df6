package io.rdmamon.protocol.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.rdmamon.protocol.model.HostSample;
import io.rdmamon.protocol.model.SourceStatus;
import io.rdmamon.protocol.model.SourceStatus.Outcome;

/**
 * A source status's third outcome, unsupported, on the wire (protocol 3): an optional {@code unsupported} reason
 * beside {@code success: true}, so that a collector that predates it (which reads statuses without a key check) counts
 * the source as read, and a status without it, from an agent that predates it, decodes as it always did.
 */
class SourceStatusWireTest {
    private static final SourceStatus NO_DCB = SourceStatus.unsupported("qos", "eth1",
            "no DCB support on eth1 (EOPNOTSUPP)");

    private final FrameCodec codec = new FrameCodec(WireFormat.DEFAULT_MAX_FRAME_BYTES);

    private static HostSample sample(long ts, SourceStatus... sources) {
        return new HostSample("n", ts, List.of(), List.of(sources));
    }

    private List<Frame> frames(HostSample... samples) {
        SampleEncoder encoder = new SampleEncoder("n", "1", 1000);
        List<Frame> frames = new ArrayList<>();
        for (int i = 0; i < samples.length; i++) {
            frames.addAll(encoder.encode(samples[i], i + 1));
        }
        return frames;
    }

    @Test
    void everyOutcomeSurvivesTheWireWithItsReason() throws FrameException {
        HostSample first = sample(1, SourceStatus.ok("sysfs", "rxe0"), NO_DCB,
                SourceStatus.failed("ethtool", "eth1", "ioctl SIOCETHTOOL on eth1: No such device"));
        HostSample second = sample(2, SourceStatus.ok("sysfs", "rxe0"), SourceStatus.ok("qos", "eth1"));
        SampleDecoder decoder = new SampleDecoder();
        List<HostSample> decoded = new ArrayList<>();
        for (Frame frame : frames(first, second)) {
            decoder.accept(codec.decode(codec.encode(frame))).ifPresent(decoded::add);
        }
        assertEquals(List.of(first, second), decoded);
        assertEquals(List.of(Outcome.OK, Outcome.UNSUPPORTED, Outcome.FAILED),
                decoded.get(0).sources().stream().map(SourceStatus::outcome).toList());
    }

    @Test
    void anUnsupportedStatusIsWrittenAsASuccessWithItsReason() {
        String values = new String(codec.encode(frames(sample(1, NO_DCB)).get(1)), StandardCharsets.UTF_8);
        assertTrue(values.contains("\"sources\":[{\"source\":\"qos\",\"subject\":\"eth1\",\"success\":true,"
                + "\"unsupported\":\"no DCB support on eth1 (EOPNOTSUPP)\"}]"), values);
    }

    @Test
    void aStatusWithoutTheFieldFromAnOlderAgentDecodesAsReadOrFailed() throws FrameException {
        for (int version = WireFormat.OLDEST_READ_VERSION; version <= WireFormat.PROTOCOL_VERSION; version++) {
            String frame = "{\"v\":" + version + ",\"type\":\"values\",\"layoutId\":1,\"seq\":1,\"ts\":1,\"values\":[],"
                    + "\"absent\":[],\"sources\":[{\"source\":\"qos\",\"subject\":\"eth1\",\"success\":false,"
                    + "\"error\":\"no DCB support on eth1 (EOPNOTSUPP)\"},{\"source\":\"sysfs\",\"subject\":\"rxe0\","
                    + "\"success\":true}]}";
            Frame.Values decoded = (Frame.Values) codec.decode(frame.getBytes(StandardCharsets.UTF_8));
            assertEquals(List.of(SourceStatus.failed("qos", "eth1", "no DCB support on eth1 (EOPNOTSUPP)"),
                    SourceStatus.ok("sysfs", "rxe0")), decoded.sources(), "version " + version);
        }
    }
}
