package io.rdmamon.agent.daemon;

import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.rdmamon.agent.host.Fixtures;
import io.rdmamon.collector.http.MetricsHandler;
import io.rdmamon.collector.metrics.RdmaMetrics;
import io.rdmamon.collector.store.NodeStore;
import io.rdmamon.protocol.exposition.ExpositionFormat;
import io.rdmamon.protocol.model.HostSample;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The agent's own /metrics ({@code rdmamon agent --listen}) renders without the collector's store, with the
 * shared exposition code: for every fixture host, in both formats, its body is byte for byte what the
 * collector exports for that node alone (a collector with no probes, diagnoses or self metrics).
 */
class AgentMetricsMatchCollectorTest {
    private static final Duration INTERVAL = Duration.ofSeconds(1);
    private static final long NOW = 1_700_000_000_000L;

    @ParameterizedTest
    @ValueSource(strings = {"mlx5-roce", "mlx5-ib", "erdma", "mlx4-ib", "bnxt-re", "irdma-no-pma"})
    void theAgentExportsTheCollectorsSeriesForItsNode(String fixture) throws Exception {
        HostSample sample = Fixtures.reader(fixture).read("fx-node");
        NodeStore store = new NodeStore(() -> NOW, 3, Long.MAX_VALUE, 1, 1);
        store.connect("fx-node", "test", INTERVAL.toMillis());
        store.accept(sample);
        RdmaMetrics collector = new RdmaMetrics(store);
        NodeExposition agent = new NodeExposition("fx-node", INTERVAL, () -> NOW);
        agent.record(sample);
        for (ExpositionFormat format : ExpositionFormat.values()) {
            ByteArrayOutputStream expected = new ByteArrayOutputStream();
            MetricsHandler.write(expected, format, collector, new PrometheusRegistry());
            ByteArrayOutputStream actual = new ByteArrayOutputStream();
            agent.write(actual, format);
            assertEquals(expected.toString(StandardCharsets.UTF_8), actual.toString(StandardCharsets.UTF_8),
                    fixture + " " + format);
        }
    }
}
