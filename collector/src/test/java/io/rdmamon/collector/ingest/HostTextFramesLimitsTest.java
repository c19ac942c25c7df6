package io.rdmamon.collector.ingest;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Function;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import io.rdmamon.protocol.model.KernelEvents;
import io.rdmamon.protocol.model.NicHealthReporter;
import io.rdmamon.protocol.model.PortWorkload;
import io.rdmamon.protocol.model.RdmaResources;
import io.rdmamon.protocol.model.SourceStatus;
import io.rdmamon.protocol.probe.LatencyResult;
import io.rdmamon.protocol.probe.ProbePhase;
import io.rdmamon.protocol.probe.ProbeRole;
import io.rdmamon.protocol.wire.Frame;
import io.rdmamon.protocol.wire.FrameCodec;
import io.rdmamon.protocol.wire.HostLayout;
import io.rdmamon.protocol.wire.HostTextFrames;

/**
 * Property: whatever text a host yields (every Unicode category, control characters, huge or empty), a frame carrying
 * it in a field the agent fills from its host passes the collector's limits once the agent has sanitised it, and
 * survives the codec. Without the sanitiser the same frames are refused, so the test sees the sanitiser at work.
 */
class HostTextFramesLimitsTest {
    private static final long SEED = 20261128L;
    private static final int SAMPLES_PER_FIELD = 100;

    private final FrameLimits limits = new FrameLimits(IngestLimits.defaults());

    /** A field the agent fills from its host: a frame with {@code text} in it. */
    record Field(String name, Function<String, Frame> frame) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Field> fields() {
        return Stream.of(
                new Field("probe error", t -> report(t, List.of())),
                new Field("probe output line", t -> report(null, List.of("ok", t))),
                new Field("probe latency untimed", t -> new Frame.ProbeReport("p-1", ProbeRole.CLIENT, ProbePhase.DONE,
                        0, null, LatencyResult.untimed(2, 1000, t), 0, null, List.of())),
                new Field("probe output of many lines", t -> report(null, Stream.generate(() -> t).limit(250).toList())),
                new Field("source error", t -> values(SourceStatus.failed("sysfs", "rxe0", t))),
                new Field("source unsupported", t -> values(SourceStatus.unsupported("qos", "eth1", t))),
                new Field("source subject", t -> values(SourceStatus.failed("sysfs", t, "gone"))),
                new Field("workload comm", t -> layout(new PortWorkload(1, "ml", "pod", "c", t, "process", null, 1))),
                new Field("workload pod", t -> layout(new PortWorkload(1, "ml", t, "c", "py", "process", null, 1))),
                new Field("workload container", t -> layout(new PortWorkload(1, "ml", "p", t, "py", "process", null, 1))),
                new Field("workload namespace", t -> layout(new PortWorkload(1, t, "p", "c", "py", "process", null, 1))),
                new Field("workload reason", t -> layout(new PortWorkload(1, null, null, null, null, "none", t, 1))),
                new Field("devlink reporter", t -> health(new NicHealthReporter("mlx5_0", "", "pci/0000:3b:00.0", t,
                        "healthy", 0, 0, null))),
                new Field("devlink device", t -> health(new NicHealthReporter(t, "", "pci/0000:3b:00.0", "fw",
                        "healthy", 0, 0, null))),
                new Field("devlink handle", t -> health(new NicHealthReporter("mlx5_0", "1", t, "tx", "error", 1, 0,
                        500L))),
                new Field("kernel record text", t -> kernel("mlx5_0", t)),
                new Field("kernel record device", t -> kernel(t, "mlx5_core 0000:3b:00.0: Fatal error 1 detected")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("fields")
    void everyHostTextPassesTheCollectorOnceSanitised(Field field) {
        FrameCodec codec = new FrameCodec();
        for (String text : hostTexts(new Random(SEED + field.name().hashCode()))) {
            Frame sanitised = HostTextFrames.sanitize(field.frame().apply(text));
            assertDoesNotThrow(() -> limits.check(sanitised), () -> field + " of " + text.length() + " chars");
            assertDoesNotThrow(() -> limits.check(codec.decode(codec.encode(sanitised))));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("fields")
    void theSameTextsUnsanitisedAreRefused(Field field) {
        String escape = "py\u001b[31mthon";
        assertThrows(StreamRefusal.class, () -> limits.check(field.frame().apply(escape)));
    }

    /** The texts a host may yield: fixed edge cases, then random strings over every char value and length. */
    private static List<String> hostTexts(Random random) {
        List<String> texts = new ArrayList<>(List.of("", "\u001b", "\n at [Source: (String)\"{\"", "\uD800",
                "\uDC00x", "x".repeat(10_000_000), "\u0000".repeat(5000), "\u202Eevil", "\uD83D\uDE80".repeat(3000)));
        IntStream.range(0, SAMPLES_PER_FIELD).forEach(i -> texts.add(randomText(random)));
        return texts;
    }

    /** A random host text: any length up to 20,000, half ASCII and Latin, half any UTF-16 unit. */
    static String randomText(Random random) {
        int length = switch (random.nextInt(4)) {
            case 0 -> random.nextInt(8);
            case 1 -> random.nextInt(300);
            case 2 -> random.nextInt(5000);
            default -> random.nextInt(20_000);
        };
        StringBuilder text = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            // half ASCII and Latin (control characters are frequent there), half any UTF-16 unit, surrogates included
            text.append((char) (random.nextBoolean() ? random.nextInt(0x100) : random.nextInt(0x10000)));
        }
        return text.toString();
    }

    private static Frame report(String error, List<String> output) {
        return new Frame.ProbeReport("p-1", ProbeRole.CLIENT, ProbePhase.FAILED, 0, null, 1, error, output);
    }

    private static Frame health(NicHealthReporter reporter) {
        return new Frame.DevlinkHealthReport(List.of(reporter));
    }

    private static Frame kernel(String device, String text) {
        return new Frame.KernelEventsReport(new KernelEvents(1, 0,
                List.of(new KernelEvents.Count("firmware_fatal", "critical", device, "", 1)),
                List.of(new KernelEvents.Event(7, 1, 1, 2, "firmware_fatal", "critical", device, "", text))));
    }

    private static Frame values(SourceStatus status) {
        return new Frame.Values(1, 1, 1, new long[0], new BitSet(), List.of(status));
    }

    private static Frame layout(PortWorkload workload) {
        RdmaResources resources = new RdmaResources(Map.of(), List.of(), 0).withWorkloads(List.of(workload));
        return new Frame.LayoutChange(2, new HostLayout(List.of(new HostLayout.DeviceLayout("rxe0", 1, "CA", null,
                null, null, null, null, List.of(), null, resources))));
    }
}
