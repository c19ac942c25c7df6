package io.rdmamon.agent.daemon;

import io.rdmamon.agent.stream.AgentStreamerOptions;
import io.rdmamon.protocol.exposition.MetricSelection;
import io.rdmamon.protocol.model.HostSample;
import io.rdmamon.protocol.net.HostPort;

import java.time.Duration;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * Settings of an {@link AgentDaemon}.
 *
 * @param node          the node name; every sample is reported under it, whatever name the sampler gives
 * @param interval      how often the host is read
 * @param sampler       reads one sample; called on a worker thread, may block
 * @param streamer      where and how to stream the samples; null = no collector
 * @param metricsListen where to serve the node's own {@code /metrics}; null = not served
 * @param metrics       the families that {@code /metrics} renders ({@code --metrics}); the stream to the collector
 *                      always carries the whole sample
 */
public record AgentDaemonOptions(String node, Duration interval, Supplier<HostSample> sampler,
                                 AgentStreamerOptions streamer, HostPort metricsListen, MetricSelection metrics) {
    public AgentDaemonOptions {
        Objects.requireNonNull(metrics, "metrics");
        Objects.requireNonNull(node, "node");
        Objects.requireNonNull(interval, "interval");
        Objects.requireNonNull(sampler, "sampler");
        if (interval.isNegative() || interval.isZero()) {
            throw new IllegalArgumentException("interval must be positive: " + interval);
        }
        // the hello announces the streamer's node and interval: they must be the ones the samples are read with
        if (streamer != null && (!streamer.node().equals(node) || !streamer.interval().equals(interval))) {
            throw new IllegalArgumentException("the streamer announces node " + streamer.node() + " every "
                    + streamer.interval() + ", the daemon reads node " + node + " every " + interval);
        }
    }

    /** Reads every {@code interval} and sends the samples nowhere yet: add a streamer, a /metrics address or both. */
    public static AgentDaemonOptions of(String node, Duration interval, Supplier<HostSample> sampler) {
        return new AgentDaemonOptions(node, interval, sampler, null, null, MetricSelection.FULL);
    }

    public AgentDaemonOptions withStreamer(AgentStreamerOptions value) {
        return new AgentDaemonOptions(node, interval, sampler, value, metricsListen, metrics);
    }

    public AgentDaemonOptions withMetricsListen(HostPort value) {
        return new AgentDaemonOptions(node, interval, sampler, streamer, value, metrics);
    }

    public AgentDaemonOptions withMetrics(MetricSelection value) {
        return new AgentDaemonOptions(node, interval, sampler, streamer, metricsListen, value);
    }
}
