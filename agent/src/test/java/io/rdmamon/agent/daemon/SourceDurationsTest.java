package io.rdmamon.agent.daemon;

import io.micrometer.core.instrument.Clock;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.rdmamon.agent.host.Fixtures;
import io.rdmamon.agent.host.HostReader;
import io.rdmamon.protocol.exposition.MetricSelection;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.TreeSet;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code rdma_source_duration_seconds{source}}: one series per source of the reader, its last sample's read time. */
class SourceDurationsTest {
    private static final Pattern SERIES = Pattern.compile("(?m)^rdma_source_duration_seconds\\{source=\"([^\"]+)\"} (\\S+)$");

    @Test
    void oneSeriesPerSourceWithTheLastSamplesReadTime() throws Exception {
        HostReader reader = Fixtures.reader("mlx5-roce");
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT, new PrometheusRegistry(),
                Clock.SYSTEM);
        SourceDurations.register(registry, reader.sourceNames(), reader::lastSourceDurations);
        assertTrue(registry.scrape().contains("# TYPE rdma_source_duration_seconds gauge"), registry.scrape());
        assertEquals(0.0, values(registry.scrape()).get("sysfs"), "nothing read yet");

        reader.read("fx-local");
        Map<String, Double> values = values(registry.scrape());
        assertEquals(new TreeSet<>(reader.sourceNames()), new TreeSet<>(values.keySet()), "one series per source");
        reader.lastSourceDurations().forEach((source, took) ->
                assertEquals(took.toNanos() / 1e9, values.get(source), 1e-9, source));
        assertTrue(values.get("sysfs") > 0, "the sysfs read took time: " + values);
    }

    @Test
    void aSourceTheLastSampleDidNotReadTookNothing() {
        assertEquals(0.0, SourceDurations.seconds(null));
        assertEquals(0.0025, SourceDurations.seconds(Duration.ofNanos(2_500_000)));
    }

    @Test
    void renderedFromTheStandardProfileOn() {
        assertFalse(MetricSelection.parse("minimal").includes("rdma_source_duration_seconds"));
        assertTrue(MetricSelection.parse("standard").includes("rdma_source_duration_seconds"));
        assertTrue(MetricSelection.FULL.includes("rdma_source_duration_seconds"));
    }

    /** Source to value. */
    private static Map<String, Double> values(String exposition) {
        Map<String, Double> values = new java.util.LinkedHashMap<>();
        Matcher m = SERIES.matcher(exposition);
        while (m.find()) {
            values.put(m.group(1), Double.parseDouble(m.group(2)));
        }
        return values;
    }
}
