package io.rdmamon.collector.pingmesh;

import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.rdmamon.protocol.testing.PromtoolCheck;
import io.rdmamon.collector.http.MetricsHandler;
import io.rdmamon.collector.metrics.RdmaMetrics;
import io.rdmamon.collector.model.PortKey;
import io.rdmamon.collector.store.NodeStore;
import io.rdmamon.protocol.exposition.MetricSelection;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** The {@code rdma_pingmesh_*} families: per port by scope, per group pair, bounded, in the profiles. */
class PingmeshExpositionTest {
    private static final long NOW = 1_700_000_000_000L;
    private static final MeshPort A = new MeshPort(new PortKey("a", "mlx5_0", 1), Fabric.ROCE, "leaf-01");
    private static final MeshPort B = new MeshPort(new PortKey("b", "mlx5_0", 1), Fabric.ROCE, "leaf-01");
    private static final MeshPort C = new MeshPort(new PortKey("c", "mlx5_0", 1), Fabric.ROCE, "leaf-02");
    private final PingmeshResults results = new PingmeshResults(Duration.ofSeconds(60), 0.067108864);
    private final NodeStore store = new NodeStore(() -> NOW, 3, 600_000, 10, 100);

    private String scrape(MetricSelection selection) throws IOException {
        return MetricsHandler.text(new RdmaMetrics(store, List::of, List::of, selection,
                () -> results.aggregates(NOW)), new PrometheusRegistry());
    }

    /** A probe's round trips: a warm-up (left out of every statistic), then {@code count} of {@code nanos}. */
    private static List<Long> rtts(long nanos, int count) {
        List<Long> list = new ArrayList<>(List.of(1_300_000_000L));
        for (int i = 0; i < count; i++) {
            list.add(nanos);
        }
        return list;
    }

    @Test
    void portsByScopeAndGroupPairsFromTheProbesOfTheWindow() throws Exception {
        results.completed(A, B, NOW - 1_000, rtts(4_000, 19));
        results.completed(A, C, NOW - 1_000, rtts(8_000, 19));
        results.unreachable(C, A, NOW - 1_000, 20, true, "timeout");
        String text = scrape(MetricSelection.FULL);
        for (String line : List.of(
                "rdma_pingmesh_rtt_seconds{device=\"mlx5_0\",node=\"a\",port=\"1\",quantile=\"0.5\",scope=\"group\"} 4.0E-6",
                "rdma_pingmesh_rtt_seconds{device=\"mlx5_0\",node=\"a\",port=\"1\",quantile=\"0.99\",scope=\"rest\"} 8.0E-6",
                // b took part as the server only: its series come from that probe too
                "rdma_pingmesh_rtt_seconds{device=\"mlx5_0\",node=\"b\",port=\"1\",quantile=\"0.5\",scope=\"group\"} 4.0E-6",
                "rdma_pingmesh_loss_ratio{device=\"mlx5_0\",node=\"a\",port=\"1\",scope=\"group\"} 0.0",
                // a ↔ c: 19 round trips measured and 20 lost
                "rdma_pingmesh_loss_ratio{device=\"mlx5_0\",node=\"c\",port=\"1\",scope=\"rest\"} 0.5128205128205128",
                "rdma_pingmesh_group_rtt_seconds{dst_group=\"leaf-02\",quantile=\"0.99\",src_group=\"leaf-01\"} 8.0E-6",
                "rdma_pingmesh_group_loss_ratio{dst_group=\"leaf-01\",src_group=\"leaf-02\"} 1.0",
                "rdma_pingmesh_group_loss_ratio{dst_group=\"leaf-01\",src_group=\"leaf-01\"} 0.0")) {
            assertTrue(text.contains(line + "\n"), line + " missing:\n" + text);
        }
        assertFalse(text.contains("rdma_pingmesh_group_rtt_seconds{dst_group=\"leaf-01\",quantile=\"0.5\",src_group=\"leaf-02\"}"),
                "no quantile without a measured round trip");
        assertEquals(0, text.lines().filter(l -> l.contains("src_node") || l.contains("dst_node")).count(),
                "never one series per port pair");
        assumeTrue(Files.isExecutable(Path.of("/usr/bin/promtool")), "promtool not installed");
        // the contract's quantile label (docs/architecture.md "Metric names") on gauges: window quantiles computed
        // here, not a summary's
        // running ones, which promtool's lint flags; that is the only complaint allowed
        String complaints = PromtoolCheck.check(text).lines()
                .filter(l -> !l.matches("rdma_pingmesh_(group_)?rtt_seconds non-summary metrics should not have "
                        + "\"quantile\" label"))
                .filter(l -> !l.equals("(exit 3)")).reduce("", String::concat);
        assertEquals("", complaints);
    }

    @Test
    void standardHasEveryPingmeshFamilyTheGrafanaRowReadsMinimalNone() throws IOException {
        results.completed(A, C, NOW - 1_000, rtts(8_000, 19));
        String standard = scrape(MetricSelection.parse("standard"));
        assertTrue(standard.contains("rdma_pingmesh_loss_ratio{"), standard);
        assertTrue(standard.contains("rdma_pingmesh_group_loss_ratio{"), standard);
        assertTrue(standard.contains("rdma_pingmesh_group_rtt_seconds{"), standard);
        assertTrue(standard.contains("rdma_pingmesh_rtt_seconds{"), standard);
        assertFalse(scrape(MetricSelection.parse("standard,-rdma_pingmesh_rtt_seconds")).contains("rdma_pingmesh_rtt_seconds{"));
        assertFalse(scrape(MetricSelection.parse("minimal")).contains("rdma_pingmesh"));
        assertTrue(scrape(MetricSelection.parse("minimal,+rdma_pingmesh_rtt_seconds")).contains("rdma_pingmesh_rtt_seconds{"));
    }

    @Test
    void probesOutsideTheWindowLeaveNoSeries() throws IOException {
        results.completed(A, B, NOW - 61_000, rtts(4_000, 19));
        assertFalse(scrape(MetricSelection.FULL).contains("rdma_pingmesh"));
    }
}
