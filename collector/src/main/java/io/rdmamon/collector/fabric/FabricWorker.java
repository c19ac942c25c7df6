package io.rdmamon.collector.fabric;

import io.rdmamon.protocol.wire.Frame;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.WorkerExecutor;

/**
 * Every change to a {@link FabricStore}, made on one worker thread in the order it was asked for. A sweep of the
 * 4,608-port scale fabric is merged with the last topology, judged by every fabric rule and its hosts looked up: work
 * the collector's event loop must not do while agents stream and browsers wait. One thread keeps the sweeps of each
 * sweeper in order and never leaves a loop waiting on the store's lock; readers take the store's immutable snapshots.
 */
public final class FabricWorker {
    /** The executor's name: its thread shows up as {@code rdmamon-fabric-…} in a thread dump. */
    static final String WORKER = "rdmamon-fabric";

    private final FabricStore store;
    private final WorkerExecutor worker;

    /** Call on the verticle's context: the executor is then closed with the verticle. */
    public FabricWorker(Vertx vertx, FabricStore store) {
        this.store = store;
        this.worker = vertx.createSharedWorkerExecutor(WORKER, 1);
    }

    /**
     * One frame of {@code sweeper}'s stream ({@link FabricStore#accept}); fails with the store's
     * {@link IllegalArgumentException} when the frame or its sweep is refused.
     */
    public Future<Void> accept(String sweeper, Frame.Fabric frame) {
        return run(() -> store.accept(sweeper, frame));
    }

    /** {@code sweeper}'s stream closed ({@link FabricStore#sweeperGone}), after every frame it sent was applied. */
    public Future<Void> sweeperGone(String sweeper) {
        return run(() -> store.sweeperGone(sweeper));
    }

    /** Drops and marks stale the fabrics no sweep reached ({@link FabricStore#expire}). */
    public Future<Void> expire() {
        return run(store::expire);
    }

    /**
     * Done once every change asked for before it was applied. The verticle's stop waits on it after its server closed:
     * the executor closes with the verticle, and a change still queued then was rejected by the closing pool, an
     * uncaught error in the worker's thread (seen on a demo stopped while sweeps streamed in).
     */
    public Future<Void> idle() {
        return run(() -> { });
    }

    private Future<Void> run(Runnable change) {
        return worker.executeBlocking(() -> {
            change.run();
            return null;
        }, true);
    }
}
