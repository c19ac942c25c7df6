package io.rdmamon.collector;

import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.rdmamon.collector.http.MetricsHandler;
import io.rdmamon.collector.metrics.RdmaMetrics;
import io.rdmamon.collector.store.NodeStore;
import io.rdmamon.protocol.model.HostSample;
import io.rdmamon.protocol.testing.FixtureHosts;
import io.rdmamon.protocol.wire.FrameCodec;
import io.rdmamon.protocol.wire.FrameException;
import io.rdmamon.protocol.wire.SampleDecoder;
import io.rdmamon.protocol.wire.WireFormat;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The rdma_* exposition of a fixed store, compared with collector/src/test/resources/golden/metrics.txt
 * (reviewed as a diff; {@code -Dgolden.update=true} rewrites it), and checked by promtool.
 */
class GoldenExpositionTest {
    private static final Path GOLDEN = Path.of("src/test/resources/golden/metrics.txt");

    /** Where the samples of the fixed store come from. */
    private interface Samples {
        HostSample host(String node, long timestampMillis, long step);
    }

    static String exposition() throws IOException {
        return exposition(FixtureHosts::golden);
    }

    private static String exposition(Samples samples) throws IOException {
        AtomicLong now = new AtomicLong(1_700_000_000_000L);
        NodeStore store = new NodeStore(now::get, 3, 600_000, 900, 100);
        store.connect("gpu-01", "1.0", 1000);
        store.accept(samples.host("gpu-01", 1_699_999_999_000L, 1));
        store.accept(samples.host("gpu-01", 1_700_000_000_000L, 2));
        store.connect("gpu-02", "1.0", 1000);
        store.accept(samples.host("gpu-02", 1_699_999_990_000L, 1));
        now.addAndGet(3_001); // gpu-02 is past 3 intervals: stale, still exported, rdma_agent_up 0
        store.accept(samples.host("gpu-01", 1_700_000_003_000L, 3));
        store.connect("gpu-03", "1.0", 1000); // connected, no sample yet: only rdma_agent_up 0
        return MetricsHandler.text(new RdmaMetrics(store), new PrometheusRegistry());
    }

    @Test
    void expositionMatchesTheGoldenFile() throws IOException {
        String actual = exposition();
        if (Boolean.getBoolean("golden.update")) {
            Files.writeString(GOLDEN, actual, StandardCharsets.UTF_8);
        }
        assertEquals(Files.readString(GOLDEN, StandardCharsets.UTF_8), actual,
                "exposition differs from " + GOLDEN + " (rerun with -Dgolden.update=true and review the diff)");
    }

    /**
     * A protocol 1 agent, whose values frames carry every per-priority counter twice (raw and as typed copies),
     * gives this collector the same exposition. The frames in {@code /wire/v1/golden-<node>.jsonl} were written by
     * the protocol 1 encoder for the samples above (step 1, 2, 3 of gpu-01; step 1 of gpu-02).
     */
    @Test
    void framesOfAProtocolOneAgentGiveTheSameExposition() throws Exception {
        Map<String, List<HostSample>> streams = new HashMap<>();
        for (String node : List.of("gpu-01", "gpu-02")) {
            streams.put(node, decodeProtocolOne("/wire/v1/golden-" + node + ".jsonl"));
        }
        String actual = exposition((node, timestampMillis, step) -> {
            HostSample sample = streams.get(node).get((int) step - 1);
            assertEquals(timestampMillis, sample.timestampMillis());
            return sample;
        });
        assertEquals(Files.readString(GOLDEN, StandardCharsets.UTF_8), actual);
    }

    private static List<HostSample> decodeProtocolOne(String resource) throws IOException, FrameException {
        FrameCodec codec = new FrameCodec(WireFormat.DEFAULT_MAX_FRAME_BYTES, "collector");
        SampleDecoder decoder = new SampleDecoder();
        List<HostSample> samples = new ArrayList<>();
        try (InputStream in = GoldenExpositionTest.class.getResourceAsStream(resource)) {
            for (String frame : new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList()) {
                assertTrue(frame.startsWith("{\"v\":1,"), frame);
                decoder.accept(codec.decode(frame.getBytes(StandardCharsets.UTF_8))).ifPresent(samples::add);
            }
        }
        return samples;
    }

    @Test
    void promtoolFindsNothingToReport() throws Exception {
        assumeTrue(Files.isExecutable(Path.of("/usr/bin/promtool")), "promtool not installed at /usr/bin/promtool");
        assertEquals("", PromtoolCheck.check(exposition()));
    }
}
