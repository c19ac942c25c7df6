package io.rdmamon.collector.ingest;

import io.vertx.core.Context;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VerticleBase;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Event loops besides the collector verticle's that decode agent frames: JSON parsing and the rebuild of a
 * {@code HostSample} are about half of the ingest cost of a sample and touch nothing shared, so they run
 * here, and the verticle's loop keeps everything that holds state (store, diagnosis, agent registry,
 * probes, acks). Each connection decodes on one of these loops, so its frames stay in order.
 *
 * <p>The loops are the contexts of {@code count} instances of an empty verticle, deployed as children of
 * the collector verticle (undeployed with it).
 */
public final class DecodeLoops {
    private final List<Context> contexts = new CopyOnWriteArrayList<>();
    private final AtomicInteger next = new AtomicInteger();

    /** An empty verticle: its context is the loop. */
    private final class Loop extends VerticleBase {
        @Override
        public Future<?> start() {
            contexts.add(context);
            return Future.succeededFuture();
        }
    }

    /** Deploys {@code count} loops; the collector uses them once this succeeds. */
    public Future<Void> deploy(Vertx vertx, int count) {
        if (count < 1) {
            throw new IllegalArgumentException("decode loops must be at least 1: " + count);
        }
        return vertx.deployVerticle(Loop::new, new DeploymentOptions().setInstances(count)).mapEmpty();
    }

    /** Decode loops for a collector on {@code cores} cores: every core but the verticle's, at least one. */
    public static int defaultCount(int cores) {
        return Math.max(1, cores - 1);
    }

    /** The loop for a new connection (round robin). */
    Context assign() {
        return contexts.get(Math.floorMod(next.getAndIncrement(), contexts.size()));
    }
}
