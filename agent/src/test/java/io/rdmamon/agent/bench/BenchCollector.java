package io.rdmamon.agent.bench;

import io.rdmamon.collector.Collector;
import io.rdmamon.collector.CollectorConfig;
import io.vertx.core.Vertx;

import java.util.Map;

/**
 * A collector process for {@link CollectorIngestBench}: {@link Collector#start} with the defaults on
 * 127.0.0.1 and a free port, announced as {@code bench port=N}. Commands on stdin: {@code stats},
 * {@code heap}, {@code gc}.
 */
public final class BenchCollector {
    private BenchCollector() {
    }

    public static void main(String[] args) throws Exception {
        Vertx vertx = Vertx.vertx();
        Collector.Running running = Collector.start(vertx, CollectorConfig.defaults().withListen("127.0.0.1:0"))
                .toCompletionStage().toCompletableFuture().get();
        BenchControl.answer("port=" + running.port());
        BenchControl.serve(Map.of("stats", () -> "nodes=" + running.store().nodes().size()
                + " connections=" + running.store().connections()));
        vertx.close();
        System.exit(0);
    }
}
