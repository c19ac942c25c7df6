package io.rdmamon.agent.bench;

import io.rdmamon.collector.Collector;
import io.rdmamon.collector.CollectorConfig;
import io.vertx.core.Vertx;

import java.nio.file.Path;
import java.util.Map;

/**
 * A collector process for {@link CollectorIngestBench} and {@link CollectorSoakIT}: {@link Collector#start} with the
 * defaults (or the config file named by the first argument) on 127.0.0.1 and a free port, announced as {@code bench port=N}. Commands on stdin: {@code stats},
 * {@code heap}, {@code gc}.
 */
public final class BenchCollector {
    private BenchCollector() {
    }

    public static void main(String[] args) throws Exception {
        Vertx vertx = Vertx.vertx();
        // an optional first argument names a config file (as `rdmamon collector --config F` reads it)
        CollectorConfig config = CollectorConfig.load(args.length > 0 ? Path.of(args[0]) : null, Map.of());
        Collector.Running running = Collector.start(vertx, config.withListen("127.0.0.1:0"))
                .toCompletionStage().toCompletableFuture().get();
        BenchControl.answer("port=" + running.port());
        BenchControl.serve(Map.of("stats", () -> "nodes=" + running.store().nodes().size()
                + " connections=" + running.store().connections()));
        vertx.close();
        System.exit(0);
    }
}
