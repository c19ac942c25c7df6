package io.rdmamon.collector.ingest;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import io.rdmamon.protocol.model.GidEntry;
import io.rdmamon.protocol.model.HostSample;
import io.rdmamon.protocol.model.IbDevice;
import io.rdmamon.protocol.model.IbPort;
import io.rdmamon.protocol.model.SourceStatus;
import io.rdmamon.protocol.testing.FixtureHosts;
import io.rdmamon.protocol.testing.HostileNames;
import io.rdmamon.protocol.text.WireLimits;
import io.rdmamon.protocol.wire.Frame;
import io.rdmamon.protocol.wire.FrameCodec;
import io.rdmamon.protocol.wire.HostSampleLimits;
import io.rdmamon.protocol.wire.HostTextFrames;
import io.rdmamon.protocol.wire.SampleDecoder;
import io.rdmamon.protocol.wire.SampleEncoder;
import io.rdmamon.protocol.wire.SampleFrames;

/**
 * Within the name, count and label-byte limits a sample can still encode past the collector's frame; the agent's
 * encode path ({@link SampleFrames}, as {@code AgentStreamer} calls it) leaves out what does not fit, so that the
 * collector's codec and {@link FrameLimits} accept every frame, the host's other devices arrive intact, a status
 * names what was left out, and the next sample of the same host keeps the layout.
 */
class SampleFramesLimitsTest {
    /** The device the golden host keeps intact beside the hostile ones. */
    private static final String OTHER_DEVICE = "erdma_0";

    private final FrameCodec codec = new FrameCodec();
    private final FrameLimits limits = new FrameLimits(IngestLimits.defaults());

    record Hostile(String name, HostSample sample) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Hostile> hostileSamples() {
        HostSample golden = FixtureHosts.golden("node-1", 1_000, 1);
        Map<String, Long> shortNames = HostileNames.oneToThreeChars(WireLimits.MAX_COUNTERS_PER_GROUP);
        Map<String, Long> escapedNames = HostileNames.escaped(WireLimits.MAX_COUNTERS_PER_GROUP);
        List<GidEntry> gids = HostileNames.gids(WireLimits.MAX_GIDS_PER_PORT);
        List<SourceStatus> okStatuses = IntStream.range(0, WireLimits.MAX_SOURCES)
                .mapToObj(i -> SourceStatus.ok("sysfs", "dev" + i)).toList();
        HostSample escapedDevice = withDevices(golden, 1,
                p -> p.toBuilder().counters(escapedNames).hwCounters(escapedNames).build(), 1);
        List<SourceStatus> quotedStatuses = IntStream.range(0, WireLimits.MAX_SOURCES)
                .mapToObj(i -> SourceStatus.failed("sysfs", "dev" + i, "\"".repeat(WireLimits.MAX_TEXT_CHARS)))
                .toList();
        return Stream.of(
                new Hostile("262,144 names of one to three characters", withDevices(golden, 1,
                        p -> p.toBuilder().counters(shortNames).hwCounters(shortNames).build(), 16)),
                new Hostile("names of quotes and backslashes", escapedDevice),
                new Hostile("1,024 statuses and a device past the frame", new HostSample(golden.node(),
                        golden.timestampMillis(), escapedDevice.devices(), okStatuses)),
                new Hostile("65,536 GIDs on two devices", withDevices(golden, 2,
                        p -> p.toBuilder().gids(gids).build(), WireLimits.MAX_PORTS_PER_DEVICE)),
                new Hostile("1,024 statuses of 4,096 quotes", new HostSample(golden.node(), golden.timestampMillis(),
                        golden.devices(), quotedStatuses)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("hostileSamples")
    void everyFrameFitsTheCollectorsFrameAndTheOtherDevicesArriveIntact(Hostile hostile) {
        HostSample golden = FixtureHosts.golden("node-1", 1_000, 1);
        SampleEncoder encoder = new SampleEncoder("node-1", "1.0.0", 1_000);
        SampleDecoder decoder = new SampleDecoder();
        HostSample received = accept(decoder, SampleFrames.encode(encoder, codec, hostile.sample(), 1));
        assertEquals(device(golden, OTHER_DEVICE), device(received, OTHER_DEVICE));
        assertTrue(received.sources().stream().anyMatch(s -> s.source().equals(HostSampleLimits.SOURCE)
                && s.error().contains("left out")), received.sources()::toString);

        List<byte[]> next = SampleFrames.encode(encoder, codec, hostile.sample(), 2);
        assertEquals(1, next.size(), "the next sample of the host changed the layout");
        assertEquals(received.devices(), accept(decoder, next).devices());
    }

    @Test
    void theLargestDevicesAreLeftOutFirstAndNamed() {
        HostSample golden = FixtureHosts.golden("node-1", 1_000, 1);
        List<GidEntry> gids = HostileNames.gids(WireLimits.MAX_GIDS_PER_PORT);
        HostSample hostile = withDevices(golden, 2, p -> p.toBuilder().gids(gids).build(),
                WireLimits.MAX_PORTS_PER_DEVICE);
        // hostile_1 lists one GID fewer on each port: the larger hostile_0 goes first, and one is enough
        hostile = new HostSample(hostile.node(), hostile.timestampMillis(), hostile.devices().stream()
                .map(d -> d.name().equals("hostile_1") ? d.withPorts(d.ports().stream()
                        .map(p -> p.toBuilder().gids(gids.subList(1, gids.size())).build()).toList()) : d).toList(),
                hostile.sources());
        HostSample received = accept(new SampleDecoder(),
                SampleFrames.encode(new SampleEncoder("node-1", "1.0.0", 1_000), codec, hostile, 1));
        assertEquals(List.of("erdma_0", "mlx5_0", "hostile_1"), received.devices().stream().map(IbDevice::name)
                .toList());
        SourceStatus status = received.sources().stream().filter(s -> s.source().equals(HostSampleLimits.SOURCE))
                .findFirst().orElseThrow();
        assertEquals("hostile_0", status.subject());
        assertTrue(status.error().startsWith("device left out: its layout and values take "), status.error());
    }

    @Test
    void aSampleThatFitsIsEncodedAsBefore() {
        HostSample golden = FixtureHosts.golden("node-1", 1_000, 1);
        List<Frame> frames = new SampleEncoder("node-1", "1.0.0", 1_000).encode(golden, 1);
        List<byte[]> encoded = SampleFrames.encode(new SampleEncoder("node-1", "1.0.0", 1_000), codec, golden, 1);
        assertEquals(frames.size(), encoded.size());
        for (int i = 0; i < frames.size(); i++) {
            assertArrayEquals(codec.encode(frames.get(i)), encoded.get(i));
        }
    }

    /** The frames as the collector reads them; the sample they carry. */
    private HostSample accept(SampleDecoder decoder, List<byte[]> frames) {
        Optional<HostSample> sample = Optional.empty();
        for (byte[] frame : frames) {
            try {
                Frame received = codec.decode(frame);
                limits.check(received);
                sample = decoder.accept(received);
            } catch (Exception e) {
                fail("refused: " + e, e);
            }
        }
        return sample.orElseThrow();
    }

    private static IbDevice device(HostSample sample, String name) {
        return sample.devices().stream().filter(d -> d.name().equals(name)).findFirst().orElseThrow();
    }

    /** {@code golden} with {@code count} devices {@code hostile_<i>} of {@code ports} ports, each port {@code change}d. */
    private static HostSample withDevices(HostSample golden, int count, UnaryOperator<IbPort> change, int ports) {
        IbDevice mlx5 = device(golden, "mlx5_0");
        IbPort port = change.apply(mlx5.ports().get(0));
        List<IbPort> hostilePorts = IntStream.rangeClosed(1, ports).mapToObj(n -> port.toBuilder().port(n).build())
                .toList();
        List<IbDevice> devices = new ArrayList<>(golden.devices());
        IntStream.range(0, count).forEach(i -> devices.add(new IbDevice("hostile_" + i, mlx5.nodeTypeId(),
                mlx5.nodeType(), mlx5.nodeGuid(), mlx5.sysImageGuid(), mlx5.fwVersion(), mlx5.hcaType(),
                mlx5.boardId(), hostilePorts, null, null)));
        return new HostSample(golden.node(), golden.timestampMillis(), devices, golden.sources());
    }
}
