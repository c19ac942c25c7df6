package io.rdmamon.protocol.wire;

import io.rdmamon.protocol.model.HostSample;
import io.rdmamon.protocol.model.IbDevice;
import io.rdmamon.protocol.model.IbPort;
import io.rdmamon.protocol.model.LldpNeighbor;
import io.rdmamon.protocol.testing.FixtureHosts;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A port's LLDP neighbour travels in the layout (issue 24): written when known, read back, absent = none known. */
class NeighborWireTest {
    private static final LldpNeighbor LEAF = new LldpNeighbor("1c:34:da:00:00:01", "mac", "leaf-01", "Ethernet8",
            "ifname", "roce-01 ens1f0np0");

    private final FrameCodec codec = new FrameCodec();

    private static HostSample withNeighbor(HostSample sample, LldpNeighbor neighbor) {
        IbDevice device = sample.devices().get(0);
        List<IbPort> ports = new ArrayList<>(device.ports());
        ports.set(0, ports.get(0).withNeighbor(neighbor));
        List<IbDevice> devices = new ArrayList<>(sample.devices());
        devices.set(0, device.withPorts(ports));
        return new HostSample(sample.node(), sample.timestampMillis(), devices, sample.sources(), sample.ncclConf());
    }

    private HostSample roundTrip(HostSample sample) throws Exception {
        List<Frame> frames = new SampleEncoder("n", "test", 1000).encode(sample, 1);
        SampleDecoder decoder = new SampleDecoder();
        decoder.accept(codec.decode(codec.encode(frames.get(0))));
        return decoder.accept(codec.decode(codec.encode(frames.get(1)))).orElseThrow();
    }

    @Test
    void theNeighbourOfAPortComesBackWithEveryField() throws Exception {
        HostSample sample = withNeighbor(FixtureHosts.golden("n", 1_700_000_000_000L, 1), LEAF);

        HostSample back = roundTrip(sample);

        assertEquals(LEAF, back.devices().get(0).ports().get(0).neighbor());
        assertEquals(sample, back);
    }

    @Test
    void fieldsLldpdLeftOutStayNullAndAreNotWritten() throws Exception {
        LldpNeighbor unnamed = new LldpNeighbor("10.0.0.1", "ip", null, "swp3", "ifname", null);
        HostSample sample = withNeighbor(FixtureHosts.golden("n", 1_700_000_000_000L, 1), unnamed);

        byte[] hello = codec.encode(new SampleEncoder("n", "test", 1000).encode(sample, 1).get(0));
        String json = new String(hello, StandardCharsets.UTF_8);

        assertTrue(json.contains("\"neighbor\":{\"chassisId\":\"10.0.0.1\",\"chassisIdType\":\"ip\","
                + "\"portId\":\"swp3\",\"portIdType\":\"ifname\"}"), json);
        assertEquals(unnamed, roundTrip(sample).devices().get(0).ports().get(0).neighbor());
    }

    @Test
    void aLayoutWithoutNeighboursWritesNoKeyAndDecodesToNone() throws Exception {
        HostSample sample = FixtureHosts.golden("n", 1_700_000_000_000L, 1);
        byte[] hello = codec.encode(new SampleEncoder("n", "test", 1000).encode(sample, 1).get(0));

        assertFalse(new String(hello, StandardCharsets.UTF_8).contains("neighbor"), "older collectors see nothing new");
        assertTrue(roundTrip(sample).devices().stream().flatMap(d -> d.ports().stream())
                .allMatch(p -> p.neighbor() == null));
    }

    @Test
    void aLayoutChangeCarriesANewNeighbour() throws Exception {
        HostSample first = withNeighbor(FixtureHosts.golden("n", 1_700_000_000_000L, 1), LEAF);
        LldpNeighbor recabled = new LldpNeighbor("1c:34:da:00:00:02", "mac", "leaf-02", "Ethernet0", "ifname", null);
        HostSample second = withNeighbor(FixtureHosts.golden("n", 1_700_000_001_000L, 2), recabled);
        SampleEncoder encoder = new SampleEncoder("n", "test", 1000);
        SampleDecoder decoder = new SampleDecoder();
        for (Frame frame : encoder.encode(first, 1)) {
            decoder.accept(codec.decode(codec.encode(frame)));
        }

        List<Frame> frames = encoder.encode(second, 2);
        assertTrue(frames.get(0) instanceof Frame.LayoutChange, frames.toString());
        HostSample back = null;
        for (Frame frame : frames) {
            back = decoder.accept(codec.decode(codec.encode(frame))).orElse(back);
        }
        assertEquals(recabled, back.devices().get(0).ports().get(0).neighbor());
        assertNull(back.devices().get(1).ports().get(0).neighbor());
    }
}
