package io.rdmamon.protocol.wire;

import io.rdmamon.protocol.model.HostSample;
import io.rdmamon.protocol.model.IbDevice;
import io.rdmamon.protocol.model.IbPort;
import io.rdmamon.protocol.testing.FixtureHosts;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A port's optional {@code gidsDropped} (issue 23 item 8): written only when entries were left out, read back. */
class GidsDroppedWireTest {
    private final FrameCodec codec = new FrameCodec();

    private static HostSample withDropped(HostSample sample, int dropped) {
        IbDevice device = sample.devices().get(0);
        IbPort p = device.ports().get(0);
        IbPort truncated = p.toBuilder().gidsDropped(dropped).build();
        List<IbPort> ports = new ArrayList<>(device.ports());
        ports.set(0, truncated);
        List<IbDevice> devices = new ArrayList<>(sample.devices());
        devices.set(0, device.withPorts(ports));
        return new HostSample(sample.node(), sample.timestampMillis(), devices, sample.sources(), sample.ncclConf());
    }

    @Test
    void aTruncatedTableSaysSoOnTheWireAndAWholeOneWritesNothing() throws Exception {
        HostSample sample = withDropped(FixtureHosts.golden("n", 1_700_000_000_000L, 1), 98_976);
        List<Frame> frames = new SampleEncoder("n", "test", 1000).encode(sample, 1);
        byte[] hello = codec.encode(frames.get(0));
        assertTrue(new String(hello, StandardCharsets.UTF_8).contains("\"gidsDropped\":98976"));
        SampleDecoder decoder = new SampleDecoder();
        decoder.accept(codec.decode(hello));
        HostSample back = decoder.accept(codec.decode(codec.encode(frames.get(1)))).orElseThrow();
        assertEquals(98_976, back.devices().get(0).ports().get(0).gidsDropped());
        assertEquals(0, back.devices().stream().flatMap(d -> d.ports().stream()).filter(p -> p.gidsDropped() == 0)
                .count() - (back.devices().stream().mapToLong(d -> d.ports().size()).sum() - 1), "the other ports: 0");

        byte[] whole = codec.encode(new SampleEncoder("n", "test", 1000)
                .encode(FixtureHosts.golden("n", 1_700_000_000_000L, 1), 1).get(0));
        assertFalse(new String(whole, StandardCharsets.UTF_8).contains("gidsDropped"), "absent = 0: older collectors");

        String negative = new String(hello, StandardCharsets.UTF_8).replace("\"gidsDropped\":98976", "\"gidsDropped\":-1");
        FrameException refused = assertThrows(FrameException.class,
                () -> codec.decode(negative.getBytes(StandardCharsets.UTF_8)));
        assertTrue(refused.getMessage().contains("gidsDropped: -1 is negative"), refused.getMessage());
    }
}
