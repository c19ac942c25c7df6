package io.rdmamon.protocol.testing;

import io.vertx.core.Future;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;

/**
 * Bounded waits for tests that drive Vert.x from a JUnit thread; shared with every module's tests
 * through the protocol's test jar. Every wait ends by itself: a hung future or an unmet condition
 * fails the test instead of hanging the build, and says what it saw last.
 */
public final class Waits {
    private static final Duration DEFAULT = Duration.ofSeconds(10);
    private static final Duration CONDITION_INTERVAL = Duration.ofMillis(20);

    /**
     * Observes something the test waits for (a query, a file, a process). An exception it throws ends the wait at
     * once (so does an interrupt); a probe that should retry after an error catches it and returns what it saw
     * instead.
     */
    @FunctionalInterface
    public interface Probe<T, E extends Exception> {
        T observe() throws E, InterruptedException;
    }

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
        Probe<Boolean, RuntimeException> probe = condition::getAsBoolean;
        if (!pollUntil(probe, Boolean::booleanValue, limit, CONDITION_INTERVAL)) {
            throw new AssertionError("timed out waiting for: " + what);
        }
    }

    /**
     * Observes every {@code interval} until {@code done} holds for an observation and returns it; fails naming
     * {@code what} and the last observation once {@code limit} has passed.
     */
    public static <T, E extends Exception> T poll(String what, Probe<T, E> probe, Predicate<? super T> done,
                                                  Duration limit, Duration interval) throws E, InterruptedException {
        T last = pollUntil(probe, done, limit, interval);
        if (!done.test(last)) {
            throw new AssertionError("timed out after " + limit.toSeconds() + " s waiting for: " + what
                    + "; last observed: " + last);
        }
        return last;
    }

    /**
     * Observes every {@code interval} until {@code done} holds for an observation or {@code limit} has passed, and
     * returns the last observation either way: for waits whose outcome the test reports itself.
     */
    public static <T, E extends Exception> T pollUntil(Probe<T, E> probe, Predicate<? super T> done, Duration limit,
                                                       Duration interval) throws E, InterruptedException {
        long deadline = System.nanoTime() + limit.toNanos();
        while (true) {
            T observed = probe.observe();
            if (done.test(observed) || System.nanoTime() > deadline) {
                return observed;
            }
            Thread.sleep(interval.toMillis());
        }
    }
}
