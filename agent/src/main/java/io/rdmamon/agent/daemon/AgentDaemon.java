package io.rdmamon.agent.daemon;

import io.rdmamon.agent.stream.AgentStreamer;
import io.rdmamon.agent.stream.StateFrameUpdates;
import io.rdmamon.protocol.model.HostSample;
import io.rdmamon.protocol.model.KernelEvents;
import io.rdmamon.protocol.model.NicHealthReporter;
import io.rdmamon.protocol.wire.Frame;
import io.rdmamon.protocol.telemetry.ProcessTelemetry;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.VertxOptions;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The node daemon ({@code rdmamon agent}, and each simulated node of {@code rdmamon demo}): reads the host
 * every interval and hands each sample to its sinks, the {@link AgentStreamer} towards the collector and
 * the node's own {@code /metrics} ({@link NodeMetricsServer}), each optional.
 *
 * <p>The read runs on a worker, never on the event loop: a host read touches hundreds of sysfs files and may
 * block (a hung driver, a slow disk). When a read overruns its interval the next beat is skipped rather than
 * started beside it, so slow reads never pile up workers; the sinks get the next sample one beat later.
 * The sinks are deployed as this verticle's children and go with it.
 */
public final class AgentDaemon extends VerticleBase {
    private static final System.Logger LOG = System.getLogger(AgentDaemon.class.getName());

    /**
     * @param reads   reads started
     * @param skipped beats skipped because the previous read was still running
     * @param failed  reads that failed (logged, and nothing sent)
     */
    public record Stats(long reads, long skipped, long failed) {
    }

    private final AgentDaemonOptions options;
    private final AgentStreamer streamer;
    /** The kernel log's events towards the collector, beside the samples; null without a streamer. */
    private final StateFrameUpdates<KernelEvents> kernelEvents;
    /** The devlink health reporters towards the collector, beside the samples; null without a streamer. */
    private final StateFrameUpdates<List<NicHealthReporter>> healthReporters;
    private final NodeMetricsServer metrics;
    private AgentHealth health;
    /** Event loop only: a read is running on a worker. */
    private boolean reading;
    private volatile long reads;
    private volatile long skipped;
    private volatile long failed;

    /**
     * The Vert.x an agent needs: one event loop (one WebSocket, one small HTTP server) and one worker (the
     * sample read, one at a time, then the /metrics render). The defaults (two loops per core, 20 workers)
     * only cost threads and memory on a node that pays for every MiB (docs/performance.md).
     */
    public static VertxOptions vertxOptions() {
        return new VertxOptions().setEventLoopPoolSize(1).setWorkerPoolSize(1);
    }

    public AgentDaemon(AgentDaemonOptions options) {
        this.options = options;
        this.streamer = options.streamer() == null ? null : new AgentStreamer(options.streamer());
        this.kernelEvents = streamer == null ? null : new StateFrameUpdates<>(streamer, Frame.KernelEventsReport.TYPE,
                Frame.KernelEventsReport::new);
        this.healthReporters = streamer == null ? null : new StateFrameUpdates<>(streamer,
                Frame.DevlinkHealthReport.TYPE, Frame.DevlinkHealthReport::new);
        this.metrics = options.metricsListen() == null ? null
                : new NodeMetricsServer(options.metricsListen(), options.node(), options.interval(),
                        options.metrics());
    }

    /** The streamer towards the collector; null without one. */
    public AgentStreamer streamer() {
        return streamer;
    }

    /** The node's own /metrics server; null without one. */
    public NodeMetricsServer metrics() {
        return metrics;
    }

    public Stats stats() {
        return new Stats(reads, skipped, failed);
    }

    @Override
    public Future<?> start() {
        List<Future<?>> deployments = new ArrayList<>();
        if (streamer != null) {
            deployments.add(vertx.deployVerticle(streamer));
        }
        if (metrics != null) {
            deployments.add(vertx.deployVerticle(metrics));
        }
        health = AgentHealth.register(ProcessTelemetry.process().meters(), this, streamer);
        return Future.all(deployments).onSuccess(started ->
                vertx.setPeriodic(0, options.interval().toMillis(), id -> beat()));
    }

    @Override
    public Future<?> stop() {
        health.remove();
        return Future.succeededFuture();
    }

    private void beat() {
        if (reading) {
            skipped++;
            return;
        }
        reading = true;
        reads++;
        vertx.executeBlocking(this::readAndRender, false)
                .andThen(done -> reading = false)
                .onSuccess(this::publish)
                .onFailure(e -> {
                    failed++;
                    LOG.log(System.Logger.Level.WARNING, "sampling failed: {0}", String.valueOf(e));
                });
    }

    /** On the worker: the sample, under the configured node name, and the node's /metrics rendered from it. */
    private HostSample readAndRender() {
        HostSample sample = Objects.requireNonNull(options.sampler().get(), "the sampler gave no sample");
        // the configured node name is the identity; the sampler's own name is not trusted
        HostSample named = new HostSample(options.node(), sample.timestampMillis(), sample.devices(), sample.sources(),
                sample.ncclConf(), sample.topology(), sample.kernel(), sample.health());
        if (metrics != null) {
            metrics.record(named);
        }
        return named;
    }

    private void publish(HostSample sample) {
        if (streamer != null) {
            streamer.offer(sample);
            kernelEvents.offer(sample.kernel());
            healthReporters.offer(sample.health());
        }
    }
}
