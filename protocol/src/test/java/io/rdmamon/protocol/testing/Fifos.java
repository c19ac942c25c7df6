package io.rdmamon.protocol.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** Named pipes where a host root has files, for readers that must refuse them rather than block on them. */
public final class Fifos {
    private Fifos() {
    }

    /** A FIFO at {@code path} (replacing any file there, parents created), made by {@code mkfifo(1)}. */
    public static Path make(Path path) throws IOException, InterruptedException {
        Files.createDirectories(path.getParent());
        Files.deleteIfExists(path);
        Process mkfifo = new ProcessBuilder("mkfifo", path.toString()).redirectErrorStream(true).start();
        String output = new String(mkfifo.getInputStream().readAllBytes());
        if (mkfifo.waitFor() != 0) {
            throw new IOException("mkfifo " + path + ": " + output);
        }
        return path;
    }

    /**
     * {@code call}'s result, run on a daemon thread of its own and waited for at most {@code bound}: a read that
     * regressed into blocking on a FIFO then fails the test (an {@link AssertionError}) instead of hanging it, and its
     * thread never keeps the JVM alive.
     */
    public static <T> T callWithin(Duration bound, Callable<T> call) throws Exception {
        FutureTask<T> task = new FutureTask<>(call);
        Thread thread = new Thread(task, "fifo-test-reader");
        thread.setDaemon(true);
        thread.start();
        try {
            return task.get(bound.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            throw new AssertionError("still running after " + bound + ": blocked opening or reading a FIFO?", e);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof Exception cause ? cause : e;
        }
    }
}
