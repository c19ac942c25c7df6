package io.rdmamon.collector;

import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.rdmamon.collector.http.MetricsHandler;
import io.rdmamon.collector.metrics.RdmaMetrics;
import io.rdmamon.collector.store.NodeStore;
import io.rdmamon.protocol.model.HostSample;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The fixed store the golden exposition files are rendered from: gpu-01 sampled three times, gpu-02 once and then
 * stale, gpu-03 connected without a sample. The collector's GoldenExpositionTest feeds it a built model, the it
 * module's FixtureExpositionTest fixture host roots read and sent through the wire.
 */
public final class GoldenScenario {
    private GoldenScenario() {
    }

    /** Where the scenario's samples come from: the {@code step}th sample of {@code node}, taken at the time given. */
    @FunctionalInterface
    public interface SampleSource {
        HostSample sample(String node, long timestampMillis, long step) throws Exception;
    }

    /** The rdma_* exposition of the scenario's store. */
    public static String exposition(SampleSource samples) throws Exception {
        AtomicLong now = new AtomicLong(1_700_000_000_000L);
        NodeStore store = new NodeStore(now::get, 3, 600_000, 900, 100);
        store.connect("gpu-01", "1.0", 1000);
        store.accept(samples.sample("gpu-01", 1_699_999_999_000L, 1));
        store.accept(samples.sample("gpu-01", 1_700_000_000_000L, 2));
        store.connect("gpu-02", "1.0", 1000);
        store.accept(samples.sample("gpu-02", 1_699_999_990_000L, 1));
        now.addAndGet(3_001); // gpu-02 is past 3 intervals: stale, still exported, rdma_agent_up 0
        store.accept(samples.sample("gpu-01", 1_700_000_003_000L, 3));
        store.connect("gpu-03", "1.0", 1000); // connected, no sample yet: only rdma_agent_up 0
        return MetricsHandler.text(new RdmaMetrics(store), new PrometheusRegistry());
    }

    /** {@code actual} equals the {@code golden} file; {@code -Dgolden.update=true} rewrites the file first. */
    public static void assertMatchesGolden(Path golden, String actual) throws IOException {
        if (Boolean.getBoolean("golden.update")) {
            Files.writeString(golden, actual, StandardCharsets.UTF_8);
        }
        assertTrue(Files.exists(golden), () -> golden.toAbsolutePath() + " missing (run from the module directory)");
        assertEquals(Files.readString(golden, StandardCharsets.UTF_8), actual,
                "exposition differs from " + golden + " (rerun with -Dgolden.update=true and review the diff)");
    }
}
