package io.rdmamon.cli.daemon;

import io.vertx.core.Vertx;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/** Keeps a daemon command in the foreground until SIGINT/SIGTERM, then closes Vert.x and runs a cleanup. */
final class RunUntilStopped {
    /**
     * How long Vert.x gets to close: a collector replica hands its agents over to the others first (up to 8 s) and
     * then leaves the cluster; well inside systemd's 90 s and Kubernetes' 30 s grace periods.
     */
    private static final Duration CLOSE_BOUND = Duration.ofSeconds(20);

    private RunUntilStopped() {
    }

    static int await(Vertx vertx, Runnable cleanup) throws InterruptedException {
        return await(vertx, () -> { }, cleanup);
    }

    /**
     * As {@link #await(Vertx, Runnable)}, running {@code beforeClose} first (the demo stops its simulator's clock, so
     * that the agents and collector close on an idle machine instead of beside a step rewriting every tree).
     */
    static int await(Vertx vertx, Runnable beforeClose, Runnable cleanup) throws InterruptedException {
        CountDownLatch stopped = new CountDownLatch(1);
        Thread hook = new Thread(() -> {
            try {
                beforeClose.run();
            } catch (RuntimeException e) {
                System.err.println("rdmamon: shutdown: " + e.getMessage());
            }
            try {
                vertx.close().toCompletionStage().toCompletableFuture().get(CLOSE_BOUND.toSeconds(), TimeUnit.SECONDS);
            } catch (java.util.concurrent.TimeoutException e) {
                System.err.println("rdmamon: shutdown: Vert.x did not close within " + CLOSE_BOUND.toSeconds() + " s; exiting all the same");
            } catch (Exception e) {
                System.err.println("rdmamon: shutdown: " + e);
            } finally {
                cleanup.run();
                stopped.countDown();
            }
        }, "rdmamon-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        stopped.await();
        return 0;
    }
}
