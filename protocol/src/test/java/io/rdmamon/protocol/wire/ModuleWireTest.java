package io.rdmamon.protocol.wire;

import io.rdmamon.protocol.model.HostSample;
import io.rdmamon.protocol.model.IbDevice;
import io.rdmamon.protocol.model.IbPort;
import io.rdmamon.protocol.model.TransceiverModule;
import io.rdmamon.protocol.model.TransceiverModule.Lane;
import io.rdmamon.protocol.model.TransceiverModule.Limits;
import io.rdmamon.protocol.model.TransceiverModule.Thresholds;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Protocol 3's transceiver: identity and thresholds in the layout, readings as the bits of doubles in value slots. */
class ModuleWireTest {
    private final FrameCodec codec = new FrameCodec(WireFormat.DEFAULT_MAX_FRAME_BYTES);
    private static final Thresholds THRESHOLDS = new Thresholds(new Limits(75, -5, 70, 0), null,
            new Limits(5.6e-4, 7.1e-6, 4.5e-4, 8.9e-6), null, new Limits(0.11, 0.02, 0.1, 0.03));

    @Test
    void readingsSurviveExactlyIncludingNegativeAndAbsentOnes() throws FrameException {
        HostSample first = host(module(-3.75, 1.2345e-7));
        HostSample second = host(module(41.00390625, 0.0));

        SampleEncoder encoder = new SampleEncoder("n", "1", 1000);
        SampleDecoder decoder = new SampleDecoder();
        List<Frame> frames = new ArrayList<>(encoder.encode(first, 1));
        List<Frame> next = encoder.encode(second, 2);
        frames.addAll(next);
        List<HostSample> decoded = new ArrayList<>();
        for (Frame frame : frames) {
            decoder.accept(codec.decode(codec.encode(frame))).ifPresent(decoded::add);
        }

        assertEquals(List.of(first, second), decoded);
        assertInstanceOf(Frame.Values.class, next.get(0), "new readings are values, not a layout change");
        String hello = new String(codec.encode(frames.get(0)), StandardCharsets.UTF_8);
        assertTrue(hello.contains("\"module\":{\"standard\":\"SFF-8636\",\"identifier\":17,\"type\":\"QSFP28\""), hello);
        assertTrue(hello.contains("\"lanes\":2,\"thresholds\":{\"temperatureCelsius\":[75.0,-5.0,70.0,0.0]"), hello);
    }

    @Test
    void aLayoutWithAnImplausibleLaneCountIsRefusedNamingIt() {
        String hello = new String(codec.encode(new SampleEncoder("n", "1", 1000).encode(host(module(1, 1)), 1).get(0)),
                StandardCharsets.UTF_8).replace("\"lanes\":2", "\"lanes\":4000");

        FrameException e = assertThrows(FrameException.class, () -> codec.decode(hello.getBytes(StandardCharsets.UTF_8)));

        assertTrue(e.getMessage().contains("module.lanes: 4000 is outside 0..32"), e.getMessage());
    }

    private static TransceiverModule module(double temperature, double rx) {
        return new TransceiverModule("SFF-8636", 0x11, "QSFP28", "ACME", "Q-100G", "A", "S123", "240101", temperature,
                null, List.of(new Lane(1, rx, 1.4e-3, 0.0575), new Lane(2, null, 1.8e-3, 0.0555)), THRESHOLDS,
                List.of("a note"));
    }

    private static HostSample host(TransceiverModule module) {
        IbPort port = new IbPort(1, 4, "ACTIVE", 5, "LinkUp", null, null, "Ethernet", "0x0", "enp5s0", Map.of(),
                Map.of(), List.of(), null, null, null, Map.of(), module);
        return new HostSample("n", 1, List.of(new IbDevice("mlx5_5", 1, "CA", null, null, "1", null, null,
                List.of(port))), List.of());
    }
}
