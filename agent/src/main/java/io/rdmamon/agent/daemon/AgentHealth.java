package io.rdmamon.agent.daemon;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.rdmamon.agent.stream.AgentStreamer;

import java.util.ArrayList;
import java.util.List;

/**
 * The agent's own health on its {@code --listen} /metrics (docs/metrics.md "Process health"): sample-loop overruns and
 * failures, and with a collector the replay buffer's depth and the connections made. Four series, read at scrape time
 * from the daemon's and the streamer's counters; removed again when the daemon stops (a test JVM runs many).
 */
final class AgentHealth {
    private final MeterRegistry registry;
    private final List<Meter> meters = new ArrayList<>();

    private AgentHealth(MeterRegistry registry) {
        this.registry = registry;
    }

    static AgentHealth register(MeterRegistry registry, AgentDaemon daemon, AgentStreamer streamer) {
        AgentHealth health = new AgentHealth(registry);
        health.meters.add(FunctionCounter.builder("rdmamon.agent.sample.overruns", daemon, d -> d.stats().skipped())
                .description("Sample beats skipped because the previous read was still running").register(registry));
        health.meters.add(FunctionCounter.builder("rdmamon.agent.sample.failures", daemon, d -> d.stats().failed())
                .description("Sample reads that failed").register(registry));
        if (streamer != null) {
            health.meters.add(Gauge.builder("rdmamon.agent.replay.buffer.samples", streamer, s -> s.stats().buffered())
                    .description("Samples buffered for the collector, unacknowledged or kept for replay")
                    .register(registry));
            health.meters.add(FunctionCounter.builder("rdmamon.agent.connects", streamer, s -> s.stats().connects())
                    .description("Connections made to a collector, the first one included").register(registry));
        }
        return health;
    }

    void remove() {
        meters.forEach(registry::remove);
        meters.clear();
    }
}
