package io.rdmamon.agent.daemon;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * {@code rdma_source_duration_seconds{source}} on the agent's {@code --listen} /metrics (docs/metrics.md "Process
 * health"): how long each source's reads took in the last sample, so that a slow ethtool or a firmware that answers
 * late shows before its reads pass the read deadline. One series per registered source (about ten), read at scrape
 * time; 0 for a source the last sample did not read (its slow cadence skipped it, or the host was not read).
 */
public final class SourceDurations {
    private SourceDurations() {
    }

    /**
     * Registers one gauge per name of {@code sources}, reading {@code lastDurations} (by source name) at scrape time:
     * {@code HostReader.sourceNames()} and {@code HostReader::lastSourceDurations}.
     */
    public static void register(MeterRegistry registry, List<String> sources,
                                Supplier<Map<String, Duration>> lastDurations) {
        for (String source : sources) {
            Gauge.builder("rdma.source.duration", lastDurations, last -> seconds(last.get().get(source)))
                    .description("Time the source's reads took in the agent's last sample, 0 when it read nothing")
                    .baseUnit("seconds").tag("source", source)
                    // a gauge holds its object weakly, and nothing else holds a method reference
                    .strongReference(true).register(registry);
        }
    }

    static double seconds(Duration took) {
        return took == null ? 0 : took.toNanos() / 1e9;
    }
}
