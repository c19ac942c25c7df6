package io.rdmamon.agent.bench;

import io.rdmamon.collector.Collector;
import io.rdmamon.collector.CollectorConfig;
import io.rdmamon.protocol.telemetry.ProcessTelemetry;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;

import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A collector process for {@link CollectorIngestBench} and {@link CollectorSoakIT}: {@link Collector#start} with the
 * defaults (or the config file named by the first argument) on 127.0.0.1 and a free port, announced as {@code bench port=N}. Commands on stdin: {@code stats},
 * {@code heap}, {@code gc}. Vert.x's blocked-thread checker warns (with a stack trace) of event loops busy for more
 * than {@value #BLOCKED_LIMIT_MILLIS} ms; {@link BlockedLoops} counts the warnings in the log.
 *
 * <p>Its Vert.x reports to Micrometer ({@code vertx_*}) as {@code rdmamon collector}'s does; the JVM flag
 * {@code -Drdmamon.bench.vertxMetrics=false} builds a plain one, to measure what that instrumentation costs
 * (docs/performance.md, "Process telemetry (Micrometer) on the collector").
 */
public final class BenchCollector {
    /** An event loop busy longer than this with one task is reported as blocked. */
    static final long BLOCKED_LIMIT_MILLIS = 100;
    /** How often the checker looks: the resolution of the blocked times reported. */
    static final long BLOCKED_CHECK_MILLIS = 50;
    /** The JVM flag that turns the Vert.x metrics off ({@code -D...=false}). */
    static final String VERTX_METRICS = "rdmamon.bench.vertxMetrics";

    private BenchCollector() {
    }

    public static void main(String[] args) throws Exception {
        // the benches count event loops blocked longer than 100 ms in the collector's log (BlockedThreadChecker
        // warnings); the stack trace of each says where
        VertxOptions options = new VertxOptions()
                .setMaxEventLoopExecuteTime(BLOCKED_LIMIT_MILLIS).setMaxEventLoopExecuteTimeUnit(TimeUnit.MILLISECONDS)
                .setWarningExceptionTime(BLOCKED_LIMIT_MILLIS).setWarningExceptionTimeUnit(TimeUnit.MILLISECONDS)
                .setBlockedThreadCheckInterval(BLOCKED_CHECK_MILLIS)
                .setBlockedThreadCheckIntervalUnit(TimeUnit.MILLISECONDS);
        // an optional first argument names a config file (as `rdmamon collector --config F` reads it); one with a
        // "cluster" section makes this process a replica of a cluster (ClusterIngestBench)
        CollectorConfig config = CollectorConfig.load(args.length > 0 ? Path.of(args[0]) : null, Map.of())
                .withListen("127.0.0.1:0");
        boolean vertxMetrics = Boolean.parseBoolean(System.getProperty(VERTX_METRICS, "true"));
        Collector.Running running = (config.cluster().enabled() ? Collector.startReplica(config, options)
                : Collector.start(vertxMetrics ? ProcessTelemetry.process().vertx(options) : Vertx.vertx(options), config))
                .toCompletionStage().toCompletableFuture().get();
        Vertx vertx = running.vertx();
        BenchControl.answer("port=" + running.port());
        BenchControl.serve(Map.of("stats", () -> "nodes=" + running.store().nodes().size()
                + " connections=" + running.store().connections() + " historyBytes=" + running.store().historyBytes()));
        vertx.close();
        System.exit(0);
    }
}
