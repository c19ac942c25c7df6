package io.rdmamon.cli.daemon;

import io.vertx.core.Vertx;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/** Keeps a daemon command in the foreground until SIGINT/SIGTERM, then closes Vert.x and runs a cleanup. */
final class RunUntilStopped {
    private RunUntilStopped() {
    }

    static int await(Vertx vertx, Runnable cleanup) throws InterruptedException {
        CountDownLatch stopped = new CountDownLatch(1);
        Thread hook = new Thread(() -> {
            try {
                vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
            } catch (java.util.concurrent.TimeoutException e) {
                // a hung peer (a frozen replica, a stuck agent socket) must not keep the process from stopping
                System.err.println("rdmamon: shutdown: not closed within 10 s; exiting anyway");
            } catch (Exception e) {
                System.err.println("rdmamon: shutdown: " + e.getMessage());
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
