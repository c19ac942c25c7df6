package io.rdmamon.collector.fabric;

import io.rdmamon.collector.model.Rule;
import io.rdmamon.protocol.testing.FabricSweeps;
import io.rdmamon.protocol.wire.FabricWire;
import io.rdmamon.protocol.wire.Frame;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.VerticleBase;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static io.rdmamon.protocol.testing.Waits.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

@ExtendWith(VertxExtension.class)
class FabricWorkerTest {
    private final CountDownLatch judging = new CountDownLatch(1);
    private final CountDownLatch release = new CountDownLatch(1);
    private volatile String judgedOn;

    /** A store whose one rule's hosts lookup stands still until released: a sweep as slow to judge as one likes. */
    private FabricStore slowStore() {
        FabricRule rule = new FabricRule() {
            @Override
            public Rule id() {
                return Rule.FABRIC_LINK_DOWN;
            }

            @Override
            public List<FabricFinding> evaluate(FabricInput in) {
                return List.of();
            }
        };
        return new FabricStore(System::currentTimeMillis, Duration.ofMinutes(10), Duration.ofHours(1), List.of(rule),
                () -> {
                    judgedOn = Thread.currentThread().getName();
                    judging.countDown();
                    try {
                        release.await(30, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    return HostPorts.NONE;
                });
    }

    /** The updates made on an event-loop context, as the collector verticle makes them. */
    private static FabricWorker onLoop(Vertx vertx, FabricStore store) throws Exception {
        Promise<FabricWorker> made = Promise.promise();
        vertx.getOrCreateContext().runOnContext(v -> made.complete(new FabricWorker(vertx, store)));
        return await(made.future());
    }

    @Test
    void aSweepIsJudgedOffTheEventLoopWhichKeepsRunningMeanwhile(Vertx vertx) throws Exception {
        FabricStore store = slowStore();
        FabricWorker updates = onLoop(vertx, store);
        List<Frame.Fabric> parts = FabricWire.parts(FabricSweeps.leafAndTwoHosts("s1"), 1);
        Promise<Future<Void>> submitted = Promise.promise();
        vertx.getOrCreateContext().runOnContext(v -> {
            Future<Void> last = Future.succeededFuture();
            for (Frame.Fabric part : parts) {
                last = updates.accept("s1", part);
            }
            submitted.complete(last);
        });
        Future<Void> applied = await(submitted.future());
        assertTrue(judging.await(10, TimeUnit.SECONDS), "the sweep reaches its rules");
        assertTrue(judgedOn.startsWith(FabricWorker.WORKER), judgedOn);
        // the loop that submitted the sweep is free while the sweep is judged
        Promise<String> loopTurn = Promise.promise();
        vertx.getOrCreateContext().runOnContext(v -> loopTurn.complete(Thread.currentThread().getName()));
        assertTrue(await(loopTurn.future()).contains("eventloop"));
        assertFalse(applied.isComplete());
        assertTrue(store.fabrics().isEmpty(), "readers see the last published fabrics, not one half applied");

        release.countDown();
        await(applied);
        assertEquals(1, store.fabrics().size());
    }

    /**
     * A verticle that owns its worker as the collector does, and whose stop waits for it: undeployed while a sweep is
     * judged and more changes are queued, it has applied every one when the undeploy completes. Without the wait the
     * undeploy completed at once and the closing pool rejected the queued changes (the worker thread's uncaught
     * RejectedExecutionException, and futures that never completed).
     */
    @Test
    void aStoppingVerticleAppliesEveryQueuedChangeBeforeItsWorkerCloses(Vertx vertx) throws Exception {
        FabricStore store = slowStore();
        List<Throwable> uncaught = Collections.synchronizedList(new ArrayList<>());
        Thread.UncaughtExceptionHandler previous = Thread.getDefaultUncaughtExceptionHandler();
        Thread.setDefaultUncaughtExceptionHandler((thread, e) -> uncaught.add(e));
        try {
            List<Future<Void>> changes = Collections.synchronizedList(new ArrayList<>());
            String id = await(vertx.deployVerticle(new VerticleBase() {
                private FabricWorker worker;

                @Override
                public Future<?> start() {
                    worker = new FabricWorker(vertx, store);
                    for (Frame.Fabric part : FabricWire.parts(FabricSweeps.leafAndTwoHosts("s1"), 1)) {
                        changes.add(worker.accept("s1", part));
                    }
                    for (int i = 0; i < 50; i++) {
                        changes.add(worker.expire());
                    }
                    return Future.succeededFuture();
                }

                @Override
                public Future<?> stop() {
                    release.countDown(); // the sweep being judged goes on once the verticle is asked to stop
                    return worker.idle();
                }
            }));
            assertTrue(judging.await(10, TimeUnit.SECONDS), "the first sweep is being judged");
            await(vertx.undeploy(id));
            for (int i = 0; i < changes.size(); i++) {
                assertTrue(changes.get(i).succeeded(), "change " + i + ": " + changes.get(i).cause());
            }
            assertEquals(1, store.fabrics().size());
            assertEquals(List.of(), uncaught);
        } finally {
            Thread.setDefaultUncaughtExceptionHandler(previous);
        }
    }

    @Test
    void changesApplyInTheOrderTheyWereAskedForAndARefusedPartFailsItsFuture(Vertx vertx) throws Exception {
        release.countDown();
        FabricStore store = slowStore();
        FabricWorker updates = onLoop(vertx, store);
        List<Frame.Fabric> parts = FabricWire.parts(FabricSweeps.leafAndTwoHosts("s1"), 1);
        Promise<List<Future<Void>>> submitted = Promise.promise();
        vertx.getOrCreateContext().runOnContext(v -> submitted.complete(List.of(
                updates.accept("s1", parts.get(0)), updates.accept("s1", parts.get(2)), // out of order: refused
                updates.accept("s1", parts.get(0)), updates.accept("s1", parts.get(1)), updates.accept("s1", parts.get(2)),
                updates.sweeperGone("s1"))));
        List<Future<Void>> results = await(submitted.future());
        await(results.get(5));
        Throwable refused = results.get(1).cause();
        assertInstanceOf(IllegalArgumentException.class, refused);
        assertTrue(refused.getMessage().contains("part 1 of 3"), refused.getMessage());
        for (int i : new int[] {0, 2, 3, 4}) {
            assertTrue(results.get(i).succeeded(), "change " + i + ": " + results.get(i).cause());
        }
        FabricState fabric = store.fabrics().get(0);
        // the sweep was applied before its sweeper went: the fabric is held, and stale with no sweeper connected
        assertEquals(3, fabric.sweep().nodes().size());
        assertFalse(fabric.sweepers().get(0).connected());
        assertTrue(fabric.stale());
    }
}
