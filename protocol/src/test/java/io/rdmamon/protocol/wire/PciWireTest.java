package io.rdmamon.protocol.wire;

import io.rdmamon.protocol.model.HostSample;
import io.rdmamon.protocol.model.IbDevice;
import io.rdmamon.protocol.model.IbPort;
import io.rdmamon.protocol.model.PciFunction;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Protocol 3's PCI function: the function in the layout, its AER counters as values after the device's ports. */
class PciWireTest {
    private final FrameCodec codec = new FrameCodec(WireFormat.DEFAULT_MAX_FRAME_BYTES);

    @Test
    void aPciFunctionSurvivesTheWireWithItsAerCountersAsValues() throws FrameException {
        Map<String, Long> aer = new LinkedHashMap<>();
        aer.put("correctable", 12L);
        aer.put("nonfatal", null);
        aer.put("fatal", 0L);
        PciFunction pci = new PciFunction("0000:c1:00.2", "0000:c1:00.0", "0000:c1:00.0", "8.0 GT/s PCIe",
                "16.0 GT/s PCIe", 8_000_000_000L, 16_000_000_000L, 8, 16, aer, List.of("a note"));
        HostSample first = host(pci, 1);
        Map<String, Long> later = new LinkedHashMap<>(aer);
        later.put("correctable", 13L);
        later.put("nonfatal", 1L);
        HostSample second = host(pci.withAerErrors(later), 2);

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
        assertInstanceOf(Frame.Values.class, next.get(0), "a counter change is no layout change");
        Frame.Values values = (Frame.Values) next.get(0);
        int portSlots = HostLayout.of(second).devices().get(0).ports().get(0).slotCount();
        assertEquals(portSlots + 3, values.values().length);
        assertEquals(13L, values.values()[portSlots]);
        String hello = new String(codec.encode(frames.get(0)), StandardCharsets.UTF_8);
        assertTrue(hello.contains("\"pci\":{\"address\":\"0000:c1:00.2\",\"physfn\":\"0000:c1:00.0\""), hello);
        assertTrue(hello.contains("\"aer\":[\"correctable\",\"nonfatal\",\"fatal\"],\"notes\":[\"a note\"]"), hello);
    }

    @Test
    void aLinkChangeIsALayoutChange() {
        PciFunction x16 = new PciFunction("0000:c1:00.0", null, "0000:c1:00.0", null, null, null, null, 16, 16,
                Map.of(), List.of());
        PciFunction x8 = new PciFunction("0000:c1:00.0", null, "0000:c1:00.0", null, null, null, null, 8, 16,
                Map.of(), List.of());
        SampleEncoder encoder = new SampleEncoder("n", "1", 1000);
        encoder.encode(host(x16, 1), 1);

        assertInstanceOf(Frame.LayoutChange.class, encoder.encode(host(x8, 2), 2).get(0));
    }

    @Test
    void aDeviceWithoutPciFunctionWritesNoFieldAndDecodesWithoutOne() throws FrameException {
        HostSample sample = host(null, 1);
        SampleEncoder encoder = new SampleEncoder("n", "1", 1000);
        List<Frame> frames = encoder.encode(sample, 1);
        String hello = new String(codec.encode(frames.get(0)), StandardCharsets.UTF_8);
        SampleDecoder decoder = new SampleDecoder();
        decoder.accept(codec.decode(codec.encode(frames.get(0))));

        HostSample decoded = decoder.accept(codec.decode(codec.encode(frames.get(1)))).orElseThrow();

        assertTrue(!hello.contains("\"pci\""), hello);
        assertNull(decoded.devices().get(0).pci());
        assertEquals(sample, decoded);
    }

    private static HostSample host(PciFunction pci, long ts) {
        IbPort port = IbPort.builder().port(1).stateId(4).state("ACTIVE").physStateId(5).physState("LinkUp")
                .linkLayer("InfiniBand").lid("0x3").counters(Map.of("link_downed", 0L)).build();
        return new HostSample("n", ts, List.of(new IbDevice("mlx5_9", 1, "CA", null, null, "1", "MT4129", null,
                List.of(port), pci)), List.of());
    }
}
