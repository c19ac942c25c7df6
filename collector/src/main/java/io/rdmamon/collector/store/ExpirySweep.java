package io.rdmamon.collector.store;

import io.vertx.core.Vertx;

/**
 * The collector's periodic sweep (expiry, history shedding of silent nodes, the diagnosis engine's staleness pass)
 * run on a worker, one at a time: over 2,000 nodes it builds a view of every node under the store's lock, which is
 * no work for an event loop that also reads agent frames (during a connection storm the sweep showed in the
 * blocked-loop traces, docs/performance.md). A tick that finds the previous sweep still running is skipped, so a
 * slow sweep never queues up behind itself.
 */
public final class ExpirySweep {
    private static final System.Logger LOG = System.getLogger(ExpirySweep.class.getName());
    private final Vertx vertx;
    private final Runnable sweep;
    private boolean running;
    private long skipped;

    /** Call {@link #start} on the owning verticle's context: the ticks and the running flag stay there. */
    public ExpirySweep(Vertx vertx, Runnable sweep) {
        this.vertx = vertx;
        this.sweep = sweep;
    }

    /** Sweeps every {@code periodMillis}; the timer is cancelled with the verticle. */
    public long start(long periodMillis) {
        return vertx.setPeriodic(periodMillis, id -> tick());
    }

    /** One tick: a sweep on a worker unless one is still running. */
    void tick() {
        if (running) {
            skipped++;
            return;
        }
        running = true;
        vertx.executeBlocking(() -> {
            sweep.run();
            return null;
        }, false).onComplete(done -> {
            running = false;
            if (done.failed()) { // the next tick tries again
                LOG.log(System.Logger.Level.WARNING, "the expiry sweep failed", done.cause());
            }
        });
    }

    /** Ticks skipped because the sweep before was still running (read on the owning context, for tests). */
    long skipped() {
        return skipped;
    }

    /** No sweep is running (read on the owning context, for tests). */
    boolean idle() {
        return !running;
    }
}
