package io.rdmamon.collector;

import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.rdmamon.collector.http.MetricsHandler;
import io.rdmamon.collector.metrics.RdmaMetrics;
import io.rdmamon.collector.store.NodeStore;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The rdma_* exposition of a fixed store, compared with collector/src/test/resources/golden/metrics.txt
 * (reviewed as a diff; {@code -Dgolden.update=true} rewrites it), and checked by promtool.
 */
class GoldenExpositionTest {
    private static final Path GOLDEN = Path.of("src/test/resources/golden/metrics.txt");

    static String exposition() throws IOException {
        AtomicLong now = new AtomicLong(1_700_000_000_000L);
        NodeStore store = new NodeStore(now::get, 3, 600_000, 900, 100);
        store.connect("gpu-01", "1.0", 1000);
        store.accept(FixtureSamples.host("gpu-01", 1_699_999_999_000L, 1));
        store.accept(FixtureSamples.host("gpu-01", 1_700_000_000_000L, 2));
        store.connect("gpu-02", "1.0", 1000);
        store.accept(FixtureSamples.host("gpu-02", 1_699_999_990_000L, 1));
        now.addAndGet(3_001); // gpu-02 is past 3 intervals: stale, still exported, rdma_agent_up 0
        store.accept(FixtureSamples.host("gpu-01", 1_700_000_003_000L, 3));
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

    @Test
    void promtoolFindsNothingToReport() throws Exception {
        assumeTrue(Files.isExecutable(Path.of("/usr/bin/promtool")), "promtool not installed at /usr/bin/promtool");
        assertEquals("", PromtoolCheck.check(exposition()));
    }
}
