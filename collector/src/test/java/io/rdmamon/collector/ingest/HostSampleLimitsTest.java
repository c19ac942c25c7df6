package io.rdmamon.collector.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.function.BiFunction;
import java.util.function.UnaryOperator;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import io.rdmamon.protocol.model.EthtoolStats;
import io.rdmamon.protocol.model.FecMode;
import io.rdmamon.protocol.model.GidEntry;
import io.rdmamon.protocol.model.GpuTopology;
import io.rdmamon.protocol.model.HostSample;
import io.rdmamon.protocol.model.IbDevice;
import io.rdmamon.protocol.model.IbPort;
import io.rdmamon.protocol.model.LldpNeighbor;
import io.rdmamon.protocol.model.PciFunction;
import io.rdmamon.protocol.model.QueuePair;
import io.rdmamon.protocol.model.RdmaResources;
import io.rdmamon.protocol.model.SourceStatus;
import io.rdmamon.protocol.model.TransceiverModule;
import io.rdmamon.protocol.testing.FixtureHosts;
import io.rdmamon.protocol.testing.QosSamples;
import io.rdmamon.protocol.text.WireLimits;
import io.rdmamon.protocol.wire.Frame;
import io.rdmamon.protocol.wire.FrameCodec;
import io.rdmamon.protocol.wire.HostSampleLimits;
import io.rdmamon.protocol.wire.HostTextFrames;
import io.rdmamon.protocol.wire.SampleDecoder;
import io.rdmamon.protocol.wire.SampleEncoder;

/**
 * Property: whatever string a host yields, in any text of a sample's layout (device, counter, netdev, GID, LLDP, QP,
 * PCI, transceiver, FEC, GPU topology, nccl.conf ...), the agent's path (fit, encode, sanitise, codec) gives frames
 * the collector accepts (its codec and {@link FrameLimits}), the sample's other devices and ports arrive intact, and a
 * second sample of the same host keeps the layout (a cut name is the same series from sample to sample). Without the
 * fit the same samples are refused, so the test sees the fit at work.
 */
class HostSampleLimitsTest {
    private static final long SEED = 20261129L;
    private static final int RANDOM_TEXTS_PER_FIELD = 16;
    /** The device the fields are put into, and the device and port that must stay intact beside it. */
    private static final String HOSTILE_DEVICE = "mlx5_0";
    private static final String OTHER_DEVICE = "erdma_0";
    private static final int OTHER_PORT = 2;

    private final FrameLimits limits = new FrameLimits(IngestLimits.defaults());
    private final FrameCodec codec = new FrameCodec();

    /** A layout name the agent fills from its host: {@code text} put into it, on {@link #HOSTILE_DEVICE} port 1. */
    record Field(String name, BiFunction<HostSample, String, HostSample> put) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Field> fields() {
        return Stream.of(
                device("device name", (d, t) -> renamed(d, t)),
                device("fw_ver", (d, t) -> new IbDevice(d.name(), d.nodeTypeId(), d.nodeType(), d.nodeGuid(),
                        d.sysImageGuid(), t, d.hcaType(), d.boardId(), d.ports(), d.pci(), d.resources())),
                device("board_id", (d, t) -> new IbDevice(d.name(), d.nodeTypeId(), d.nodeType(), d.nodeGuid(),
                        d.sysImageGuid(), d.fwVersion(), d.hcaType(), t, d.ports(), d.pci(), d.resources())),
                device("QP kern_name", (d, t) -> d.withResources(RdmaResources.bounded(Map.of("qp", 1L),
                        List.of(new QueuePair(7, 8L, 1, "RC", "RTS", null, t))))),
                device("resource type", (d, t) -> d.withResources(RdmaResources.bounded(Map.of(t, 1L), List.of()))),
                device("PCI address", (d, t) -> withPci(d, new PciFunction(t, t, t, "8.0 GT/s PCIe", null, null, null,
                        8, 16, Map.of(), List.of()))),
                device("PCI link speeds and notes", (d, t) -> withPci(d, new PciFunction("0000:3b:00.0", null,
                        "0000:3b:00.0", t, t, null, null, null, null, Map.of(), List.of(t, "second " + t)))),
                port("netdev", (p, t) -> p.toBuilder().netdev(t).build()),
                port("rate", (p, t) -> p.toBuilder().rate(t).build()),
                port("state", (p, t) -> p.toBuilder().state(t).build()),
                port("counter name", (p, t) -> p.toBuilder().counters(with(p.counters(), t)).build()),
                port("counter names equal once cut", (p, t) -> p.toBuilder()
                        .counters(with(with(p.counters(), t + "a".repeat(300)), t + "b".repeat(300))).build()),
                port("hw_counter name", (p, t) -> p.toBuilder().hwCounters(with(p.hwCounters(), t)).build()),
                port("ethtool statistic name", (p, t) -> p.toBuilder()
                        .ethtool(EthtoolStats.of(p.ethtool().netdev(), with(p.ethtool().raw(), t))).build()),
                port("ethtool netdev", (p, t) -> p.toBuilder().ethtool(EthtoolStats.of(t, p.ethtool().raw())).build()),
                port("GID", (p, t) -> p.toBuilder().gids(List.of(new GidEntry(0, t, "RoCE v2", "eth2", null))).build()),
                port("GID netdev", (p, t) -> p.toBuilder()
                        .gids(List.of(new GidEntry(0, "fe80::1", "RoCE v2", t, null))).build()),
                port("LLDP system name", (p, t) -> p.withNeighbor(new LldpNeighbor("1c:34", "mac", t, "Eth8", "ifname",
                        null))),
                port("LLDP chassis id", (p, t) -> p.withNeighbor(new LldpNeighbor(t, "local", "leaf", "Eth8", null,
                        t))),
                port("LLDP port id and description", (p, t) -> p.withNeighbor(new LldpNeighbor("1c:34", "mac", "leaf",
                        t, "local", t))),
                port("module vendor, part, serial and date", (p, t) -> p.toBuilder().module(new TransceiverModule(
                        "SFF-8636", 0x11, "QSFP28", t, t, "A", t, t, null, null, List.of(), null, List.of())).build()),
                port("module standard, type, revision and notes", (p, t) -> p.toBuilder().module(new TransceiverModule(
                        t, 0x11, t, "ACME", "Q-100G", t, "S123", "240101", null, null, List.of(), null, List.of(t)))
                        .build()),
                port("FEC modes", (p, t) -> p.toBuilder().fec(new FecMode(t, List.of("Auto", t))).build()),
                port("QoS trust order", (p, t) -> p.toBuilder().qos(QosSamples.afterReboot().trustOrder(t).build())
                        .build()),
                sample("two devices equal once cut", (s, t) -> new HostSample(s.node(), s.timestampMillis(),
                        Stream.concat(s.devices().stream(), Stream.of(renamed(s.devices().get(1), t + "x".repeat(300)),
                                renamed(s.devices().get(1), t + "y".repeat(300)))).toList(), s.sources())),
                sample("topology endpoint texts", (s, t) -> withTopology(s, t, "0000:19:00.0", List.of())),
                sample("topology address, notes and reasons", (s, t) -> withTopology(s, "GPU0", t, List.of(t))),
                sample("nccl.conf name", (s, t) -> withNcclConf(s, t, "1")),
                sample("nccl.conf value", (s, t) -> withNcclConf(s, "NCCL_IB_HCA", t)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("fields")
    void everyHostStringInALayoutNameReachesTheCollector(Field field) {
        HostSample base = FixtureHosts.golden("node-1", 1_000, 1);
        for (String text : hostTexts(new Random(SEED + field.name().hashCode()))) {
            String what = field + " of " + text.length() + " chars " + printable(text);
            SampleEncoder encoder = new SampleEncoder("node-1", "1.0.0", 1_000);
            SampleDecoder decoder = new SampleDecoder();
            HostSample first = accept(decoder, encoder.encode(HostSampleLimits.fit(field.put().apply(base, text)), 1),
                    what);
            assertEquals(base.devices().stream().filter(d -> d.name().equals(OTHER_DEVICE)).findFirst(),
                    first.devices().stream().filter(d -> d.name().equals(OTHER_DEVICE)).findFirst(), what);
            assertEquals(base.devices().get(1).ports().get(1), hostileDevice(first).ports().stream()
                    .filter(p -> p.port() == OTHER_PORT).findFirst().orElseThrow(), what);
            List<Frame> second = encoder.encode(HostSampleLimits.fit(field.put().apply(
                    FixtureHosts.golden("node-1", 2_000, 2), text)), 2);
            assertEquals(1, second.size(), () -> what + ": the second sample changed the layout: " + second);
            accept(decoder, second, what);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("fields")
    void theSameSamplesUnfittedAreRefused(Field field) {
        HostSample hostile = field.put().apply(FixtureHosts.golden("node-1", 1_000, 1), "py\u001b[31mthon");
        Frame hello = new SampleEncoder("node-1", "1.0.0", 1_000).encode(hostile, 1).get(0);
        assertThrows(StreamRefusal.class, () -> limits.check(HostTextFrames.sanitize(hello)));
    }

    @Test
    void aSampleThatFitsIsSentAsItIs() {
        HostSample golden = FixtureHosts.golden("node-1", 1_000, 1);
        assertSame(golden, HostSampleLimits.fit(golden));
    }

    @Test
    void whatWasCutOrLeftOutIsAFailedStatusOfItsDevice() {
        HostSample hostile = fields().filter(f -> f.name().equals("counter names equal once cut")).findFirst()
                .orElseThrow().put().apply(FixtureHosts.golden("node-1", 1_000, 1), "c".repeat(300));
        SourceStatus status = HostSampleLimits.fit(hostile).sources().stream()
                .filter(s -> s.source().equals(HostSampleLimits.SOURCE)).findFirst().orElseThrow();
        assertEquals(HOSTILE_DEVICE, status.subject());
        assertTrue(status.error().startsWith("1 name escaped or cut to 256 characters (first: port 1 counter 'ccc")
                && status.error().contains("; 1 item left out (first: port 1 counter 'ccc"), status.error());
    }

    @Test
    void namesPastTheLayoutsLabelBytesAreLeftOutNotTheNode() {
        // 4 MiB of distinct counter names on one port: twice the label bytes a layout may carry
        Map<String, Long> counters = new LinkedHashMap<>();
        IntStream.range(0, WireLimits.MAX_COUNTERS_PER_GROUP).forEach(i -> counters.put(
                String.format("%05d", i) + "n".repeat(WireLimits.MAX_NAME_CHARS - 5), (long) i));
        HostSample hostile = fields().filter(f -> f.name().equals("counter name")).findFirst().orElseThrow().put()
                .apply(FixtureHosts.golden("node-1", 1_000, 1), "x");
        HostSample huge = withPort(hostile, p -> p.toBuilder().counters(counters).hwCounters(counters).build());
        HostSample received = accept(new SampleDecoder(),
                new SampleEncoder("node-1", "1.0.0", 1_000).encode(HostSampleLimits.fit(huge), 1), "4 MiB of names");
        assertTrue(received.sources().stream().anyMatch(s -> s.source().equals(HostSampleLimits.SOURCE)
                && s.error().contains("past the layout's label bytes")), received.sources()::toString);
    }

    /** The frames as the agent writes and the collector reads them; the sample they carry. */
    private HostSample accept(SampleDecoder decoder, List<Frame> frames, String what) {
        Optional<HostSample> sample = Optional.empty();
        for (Frame frame : frames) {
            try {
                Frame received = codec.decode(codec.encode(HostTextFrames.sanitize(frame)));
                limits.check(received);
                sample = decoder.accept(received);
            } catch (Exception e) {
                fail(what + ": refused: " + e, e);
            }
        }
        return sample.orElseThrow();
    }

    private static IbDevice hostileDevice(HostSample sample) {
        return sample.devices().stream().filter(d -> !d.name().equals(OTHER_DEVICE)).findFirst().orElseThrow();
    }

    /** The texts a host may yield: fixed edge cases, then random strings ({@link HostTextFramesLimitsTest}). */
    private static List<String> hostTexts(Random random) {
        List<String> texts = new ArrayList<>(List.of("", " ", "\t \n", "fleet", "\u001b[31m", "a\u2028b", "\uD800",
                "x\uDC00", "\uD83D\uDE80".repeat(200), "\"quoted\\\"} {braces} \\", "\u202Eevil", "\u0000",
                "y".repeat(10_000), "z".repeat(100_000)));
        IntStream.range(0, RANDOM_TEXTS_PER_FIELD)
                .forEach(i -> texts.add(HostTextFramesLimitsTest.randomText(random)));
        return texts;
    }

    private static String printable(String text) {
        return io.rdmamon.protocol.text.WireText.quote(text);
    }

    private static Field sample(String name, BiFunction<HostSample, String, HostSample> put) {
        return new Field(name, put);
    }

    private static Field device(String name, BiFunction<IbDevice, String, IbDevice> put) {
        return new Field(name, (s, t) -> withDevice(s, d -> put.apply(d, t)));
    }

    private static Field port(String name, BiFunction<IbPort, String, IbPort> put) {
        return new Field(name, (s, t) -> withPort(s, p -> put.apply(p, t)));
    }

    private static HostSample withDevice(HostSample s, UnaryOperator<IbDevice> change) {
        return new HostSample(s.node(), s.timestampMillis(), s.devices().stream()
                .map(d -> d.name().equals(HOSTILE_DEVICE) ? change.apply(d) : d).toList(), s.sources(), s.ncclConf(),
                s.topology(), s.kernel());
    }

    /** {@code s} with port 1 of {@link #HOSTILE_DEVICE} changed. */
    private static HostSample withPort(HostSample s, UnaryOperator<IbPort> change) {
        return withDevice(s, d -> d.withPorts(d.ports().stream().map(p -> p.port() == 1 ? change.apply(p) : p)
                .toList()));
    }

    private static IbDevice renamed(IbDevice d, String name) {
        return new IbDevice(name, d.nodeTypeId(), d.nodeType(), d.nodeGuid(), d.sysImageGuid(), d.fwVersion(),
                d.hcaType(), d.boardId(), d.ports(), d.pci(), d.resources());
    }

    private static Map<String, Long> with(Map<String, Long> counters, String name) {
        Map<String, Long> out = new LinkedHashMap<>(counters);
        out.put(name, 1L);
        return out;
    }

    private static IbDevice withPci(IbDevice d, PciFunction pci) {
        return new IbDevice(d.name(), d.nodeTypeId(), d.nodeType(), d.nodeGuid(), d.sysImageGuid(), d.fwVersion(),
                d.hcaType(), d.boardId(), d.ports(), pci, d.resources());
    }

    /** A GPU {@code gpu} at {@code address} beside the NIC, whose pair, notes and bridges hold {@code lines}. */
    private static HostSample withTopology(HostSample s, String gpu, String address, List<String> lines) {
        GpuTopology topology = new GpuTopology(List.of(
                new GpuTopology.Endpoint(gpu, gpu, "gpu", address, 0, gpu.equals("GPU0") ? "0-55" : gpu, null),
                new GpuTopology.Endpoint(HOSTILE_DEVICE, "NIC0", "nic", "0000:19:02.0", 0, "0-55", true)),
                List.of(List.of("X", "PIX"), List.of("PIX", "X")),
                List.of(new GpuTopology.Pair(gpu, HOSTILE_DEVICE, "PIX", "ready", true, lines, lines)), true, lines);
        return new HostSample(s.node(), s.timestampMillis(), s.devices(), s.sources(), s.ncclConf(), topology,
                s.kernel());
    }

    private static HostSample withNcclConf(HostSample s, String key, String value) {
        Map<String, String> conf = new LinkedHashMap<>();
        conf.put("NCCL_DEBUG", "WARN");
        conf.put(key, value);
        return new HostSample(s.node(), s.timestampMillis(), s.devices(), s.sources(), conf, s.topology(), s.kernel());
    }
}
