package io.rdmamon.cli.it;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DashboardQueriesTest {
    @Test
    void grafanaVariablesBecomeMatchAllRegexesAndDurations() {
        assertEquals("sum(rate(rdma_x_total{node=~\".*\",device=~\".*\",port=~\".*\"}[30s])) + max_over_time(rdma_y[5m])",
                DashboardQueries.substitute("sum(rate(rdma_x_total{node=~\"$node\",device=~\"${device}\",port=~\"${port:regex}\"}"
                        + "[$__rate_interval])) + max_over_time(rdma_y[$__range])"));
        IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class,
                () -> DashboardQueries.substitute("rdma_x{job=\"$job\"}"));
        assertTrue(unknown.getMessage().contains("$job"), unknown.getMessage());
    }

    @Test
    void readsPanelsNestedInRowsAndNamesTheirMetrics(@TempDir Path dir) throws IOException {
        Files.writeString(dir.resolve("d.json"), """
                {"panels": [
                  {"type": "stat", "title": "Up", "targets": [{"expr": "sum(rdma_agent_up)"}]},
                  {"type": "row", "title": "Probes", "panels": [
                    {"type": "timeseries", "title": "Bandwidth", "targets": [
                      {"expr": "rdma_probe_bandwidth_bits_per_second{src_node=~\\"$node\\"}"},
                      {"expr": "rate({__name__=~\\"rdma_hw_(tx_|hw_)bps_limit_drop_cnt_total\\"}[$__rate_interval]) or rdma:erdma_limit_drops:rate2m"}]}]}]}
                """);
        Files.writeString(dir.resolve("ignored.txt"), "not a dashboard");
        List<DashboardQueries.PanelQuery> queries = DashboardQueries.read(dir);
        assertEquals(List.of("Up", "Probes / Bandwidth", "Probes / Bandwidth"),
                queries.stream().map(DashboardQueries.PanelQuery::panel).toList());
        assertEquals("rdma_probe_bandwidth_bits_per_second{src_node=~\".*\"}", queries.get(1).expr());
        assertEquals(Set.of("rdma_hw_", "rdma:erdma_limit_drops:rate2m"), queries.get(2).metricNames());
    }
}
