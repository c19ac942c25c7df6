package io.rdmamon.nativeio;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/** Runs test helper programs from argv lists (never a shell). */
public final class Commands {
    private static final long TIMEOUT_SECONDS = 30;

    private Commands() {
    }

    /** Runs {@code argv} and returns its stdout; fails with stderr when it exits non-zero. */
    public static String run(List<String> argv) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(argv).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                .start();
        // stderr drained concurrently so that neither pipe can fill up and stall the child
        CompletableFuture<String> err = CompletableFuture.supplyAsync(() -> readAll(process.getErrorStream()));
        String out = readAll(process.getInputStream());
        if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new IOException(argv + " did not finish in " + TIMEOUT_SECONDS + " s");
        }
        if (process.exitValue() != 0) {
            throw new IOException(argv + " exited " + process.exitValue() + ": " + err.join().strip());
        }
        return out;
    }

    /**
     * Runs {@code argv} with its output discarded and returns its exit code: for programs whose refusal is the
     * expected outcome (and that write what the test reads to a file, like {@code strace -o}).
     */
    public static int exitCode(List<String> argv) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(argv).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(ProcessBuilder.Redirect.DISCARD)
                .start();
        if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new IOException(argv + " did not finish in " + TIMEOUT_SECONDS + " s");
        }
        return process.exitValue();
    }

    private static String readAll(InputStream stream) {
        try {
            return new String(stream.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Whether {@code argv} (typically {@code tool --version}) can be run and succeeds. */
    public static boolean available(String... argv) {
        try {
            run(List.of(argv));
            return true;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
