package io.rdmamon.protocol.wire;

import io.rdmamon.protocol.model.HostSample;
import io.rdmamon.protocol.model.IbDevice;
import io.rdmamon.protocol.model.FecMode;
import io.rdmamon.protocol.model.IbPort;
import io.rdmamon.protocol.model.TransceiverModule;
import io.rdmamon.protocol.model.TransceiverModule.Lane;
import io.rdmamon.protocol.model.TransceiverModule.Limits;
import io.rdmamon.protocol.model.TransceiverModule.Thresholds;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

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

    /** The FEC encoding rides in the layout (slow cadence): a change is a new layout, and absent stays absent. */
    @Test
    void theFecEncodingTravelsInTheLayoutAndAChangeIsANewLayout() throws FrameException {
        HostSample rs = withFec(host(module(30, 1e-4)), new FecMode("RS", List.of("Auto", "RS")));
        HostSample off = withFec(host(module(30, 1e-4)), new FecMode("Off", List.of("Off")));
        HostSample none = host(module(30, 1e-4));

        SampleEncoder encoder = new SampleEncoder("n", "1", 1000);
        SampleDecoder decoder = new SampleDecoder();
        List<HostSample> decoded = new ArrayList<>();
        List<Frame> frames = new ArrayList<>();
        for (HostSample sample : List.of(rs, off, none)) {
            List<Frame> encoded = encoder.encode(sample, frames.size() + 1);
            Class<? extends Frame> expected = frames.isEmpty() ? Frame.Hello.class : Frame.LayoutChange.class;
            assertTrue(expected.isInstance(encoded.get(0)), "a FEC change is a new layout: " + encoded.get(0));
            frames.addAll(encoded);
            for (Frame frame : encoded) {
                decoder.accept(codec.decode(codec.encode(frame))).ifPresent(decoded::add);
            }
        }

        assertEquals(List.of(rs, off, none), decoded);
        String hello = new String(codec.encode(frames.get(0)), StandardCharsets.UTF_8);
        assertTrue(hello.contains("\"fec\":{\"active\":\"RS\",\"configured\":[\"Auto\",\"RS\"]}"), hello);
    }

    private static HostSample withFec(HostSample sample, FecMode fec) {
        IbPort p = sample.devices().get(0).ports().get(0);
        IbPort port = p.toBuilder().fec(fec).build();
        IbDevice d = sample.devices().get(0);
        return new HostSample(sample.node(), sample.timestampMillis(), List.of(new IbDevice(d.name(), d.nodeTypeId(),
                d.nodeType(), d.nodeGuid(), d.sysImageGuid(), d.fwVersion(), d.hcaType(), d.boardId(), List.of(port))),
                sample.sources());
    }

    private static TransceiverModule module(double temperature, double rx) {
        return new TransceiverModule("SFF-8636", 0x11, "QSFP28", "ACME", "Q-100G", "A", "S123", "240101", temperature,
                null, List.of(new Lane(1, rx, 1.4e-3, 0.0575), new Lane(2, null, 1.8e-3, 0.0555)), THRESHOLDS,
                List.of("a note"));
    }

    private static HostSample host(TransceiverModule module) {
        IbPort port = IbPort.builder().port(1).stateId(4).state("ACTIVE").physStateId(5).physState("LinkUp")
                .linkLayer("Ethernet").lid("0x0").netdev("enp5s0").module(module).build();
        return new HostSample("n", 1, List.of(new IbDevice("mlx5_5", 1, "CA", null, null, "1", null, null,
                List.of(port))), List.of());
    }
}
