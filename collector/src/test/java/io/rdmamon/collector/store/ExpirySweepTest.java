package io.rdmamon.collector.store;

import io.rdmamon.protocol.testing.Waits;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The sweep runs on a worker, never two at once, and a failed sweep does not stop the next. */
@ExtendWith(VertxExtension.class)
class ExpirySweepTest {
    private Vertx vertx;
    private Context home;

    @BeforeEach
    void setUp(Vertx vertx) {
        this.vertx = vertx;
        home = vertx.getOrCreateContext();
    }

    /** {@code action} on the sweep's own context (where ticks run and its state lives), and its result. */
    private <T> T onHome(Supplier<T> action) throws Exception {
        return Waits.await(Future.future(p -> home.runOnContext(v -> p.complete(action.get()))));
    }

    private void awaitIdle(ExpirySweep sweep) throws Exception {
        Waits.poll("the sweep to finish", () -> onHome(sweep::idle), Boolean::booleanValue, Duration.ofSeconds(10),
                Duration.ofMillis(20));
    }

    @Test
    void sweepsOnAWorkerAndSkipsTicksWhileTheLastSweepRuns() throws Exception {
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger sweeps = new AtomicInteger();
        AtomicInteger onEventLoop = new AtomicInteger();
        ExpirySweep sweep = new ExpirySweep(vertx, () -> {
            if (Context.isOnEventLoopThread()) {
                onEventLoop.incrementAndGet();
            }
            sweeps.incrementAndGet();
            started.countDown();
            try {
                release.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        onHome(() -> {
            sweep.tick();
            return null;
        });
        assertTrue(started.await(10, TimeUnit.SECONDS), "the first sweep started");
        long skipped = onHome(() -> { // the first sweep is still blocked: both ticks are skipped
            sweep.tick();
            sweep.tick();
            return sweep.skipped();
        });
        assertEquals(2, skipped);
        release.countDown();
        awaitIdle(sweep);
        assertEquals(1, sweeps.get(), "no sweep queued behind the running one");
        onHome(() -> {
            sweep.tick();
            return null;
        });
        awaitIdle(sweep);
        assertEquals(2, sweeps.get(), "a tick sweeps again once the last sweep is done");
        assertEquals(0, onEventLoop.get(), "the sweep ran on an event loop");
    }

    @Test
    void aFailedSweepLeavesTheNextTickFree() throws Exception {
        AtomicInteger sweeps = new AtomicInteger();
        ExpirySweep sweep = new ExpirySweep(vertx, () -> {
            sweeps.incrementAndGet();
            throw new IllegalStateException("a broken sweep");
        });
        for (int i = 0; i < 2; i++) {
            onHome(() -> {
                sweep.tick();
                return null;
            });
            awaitIdle(sweep);
        }
        assertEquals(2, sweeps.get());
        assertEquals(0L, (long) onHome(sweep::skipped));
    }
}
