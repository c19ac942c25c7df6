package io.rdmamon.protocol.testing;

import io.vertx.core.Future;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * Bounded waits for tests that drive Vert.x from a JUnit thread; shared with every module's tests
 * through the protocol's test jar. Every wait ends by itself: a hung future or an unmet condition
 * fails the test instead of hanging the build.
 */
public final class Waits {
    private static final Duration DEFAULT = Duration.ofSeconds(10);

    private Waits() {
    }

    /** The future's result, failing after 10 s. */
    public static <T> T await(Future<T> future) throws Exception {
        return await(future, DEFAULT);
    }

    public static <T> T await(Future<T> future, Duration limit) throws Exception {
        return future.toCompletionStage().toCompletableFuture().get(limit.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Polls {@code condition} every 20 ms until it holds, failing with {@code what} after 10 s. */
    public static void waitFor(BooleanSupplier condition, String what) throws InterruptedException {
        waitFor(condition, what, DEFAULT);
    }

    public static void waitFor(BooleanSupplier condition, String what, Duration limit) throws InterruptedException {
        long deadline = System.nanoTime() + limit.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting for: " + what);
            }
            Thread.sleep(20);
        }
    }
}
