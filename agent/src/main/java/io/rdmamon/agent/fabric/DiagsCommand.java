package io.rdmamon.agent.fabric;

import io.rdmamon.agent.capability.UnsupportedCapabilityException;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Runs one infiniband-diags program (argv, never a shell) bounded in time and output: one that has not exited by
 * the deadline is killed with its children, one that prints more than the limit is killed too. Both streams are read
 * at once, so a tool that writes many warnings cannot stall on a full pipe. A program that cannot be started is an
 * absent capability ({@link UnsupportedCapabilityException}).
 */
final class DiagsCommand {
    /** The output of a 40,000-port fabric's counters is about 15 MB; far more is not a tool's answer. */
    static final int MAX_OUTPUT_BYTES = 64 * 1024 * 1024;
    private static final int MAX_ERROR_BYTES = 64 * 1024;
    private static final java.util.regex.Pattern IBWARN_PID = java.util.regex.Pattern.compile("^(ib\\w+: )\\[\\d+] ");
    /**
     * Reads the running programs' streams: a thread per stream while it is open (a blocking read has no other way),
     * daemon threads so that a stuck read never holds the JVM, reused across sweeps.
     */
    private static final ExecutorService STREAMS = Executors.newCachedThreadPool(task -> {
        Thread thread = new Thread(task, "rdmamon-diags-output");
        thread.setDaemon(true);
        return thread;
    });

    /** What the program printed and how it ended. */
    record Output(int exit, String stdout, String stderr) {
        /**
         * stderr's lines that say something, without libibmad's process id ({@code ibwarn: [1234] f: ...}), so that
         * the same warning reads the same in every sweep; libumad2sim's "attached as client" notice is not one.
         */
        List<String> warnings() {
            return stderr.lines().filter(l -> !l.isBlank() && !l.contains("sim_connect: attached as client"))
                    .map(l -> IBWARN_PID.matcher(l).replaceFirst("$1")).toList();
        }
    }

    private final Map<String, String> environment;

    /** @param environment added to the child's (e.g. {@code LD_PRELOAD} of ibsim's umad2sim in tests) */
    DiagsCommand(Map<String, String> environment) {
        this.environment = Map.copyOf(environment);
    }

    /** Runs the program and waits for its end: {@link #start} then {@link Running#await}. */
    Output run(List<String> argv, Duration timeout) throws IOException {
        return start(argv, timeout).await();
    }

    /**
     * Starts the program, its two streams read by {@link #STREAMS}' threads, so that the caller may start others
     * before it waits: a sweep's passes then overlap, each bounded by its own deadline.
     */
    Running start(List<String> argv, Duration timeout) throws IOException {
        String call = String.join(" ", argv);
        ProcessBuilder builder = new ProcessBuilder(argv);
        builder.environment().putAll(environment);
        Process process;
        try {
            process = builder.start();
        } catch (IOException e) {
            throw new UnsupportedCapabilityException(call + ": cannot run " + argv.get(0)
                    + " (infiniband-diags not installed?): " + e.getMessage());
        }
        process.getOutputStream().close();
        return new Running(call, process, timeout);
    }

    /** A started program; {@link #await()} once, or {@link #kill()} when its answer is no longer wanted. */
    static final class Running {
        private final String call;
        private final Process process;
        private final Duration timeout;
        private final AtomicBoolean killed = new AtomicBoolean();
        private final AtomicBoolean stopped = new AtomicBoolean();
        private final CompletableFuture<byte[]> output;
        private final CompletableFuture<byte[]> error;

        private Running(String call, Process process, Duration timeout) {
            this.call = call;
            this.process = process;
            this.timeout = timeout;
            process.onExit().orTimeout(timeout.toMillis(), TimeUnit.MILLISECONDS).exceptionally(timedOut -> {
                killed.set(true);
                DiagsCommand.kill(process);
                return null;
            });
            // one byte past the limit tells an over-long answer from one that is exactly the limit
            output = CompletableFuture.supplyAsync(() -> read(process.getInputStream(), MAX_OUTPUT_BYTES + 1, false),
                    STREAMS);
            error = CompletableFuture.supplyAsync(() -> read(process.getErrorStream(), MAX_ERROR_BYTES, true), STREAMS);
        }

        Output await() throws IOException {
            if (stopped.get()) {
                throw new IOException(call + ": stopped before it answered");
            }
            try {
                byte[] stdout;
                try {
                    stdout = output.get();
                } catch (ExecutionException e) {
                    DiagsCommand.kill(process);
                    throw killed.get() ? timedOut() : new IOException(call + ": " + e.getCause().getMessage(),
                            e.getCause());
                }
                if (stdout.length > MAX_OUTPUT_BYTES) {
                    DiagsCommand.kill(process);
                    throw new IOException(call + ": printed more than " + MAX_OUTPUT_BYTES + " bytes");
                }
                int exit = process.waitFor();
                if (killed.get()) {
                    throw timedOut();
                }
                return new Output(exit, new String(stdout, StandardCharsets.UTF_8),
                        new String(error.get(timeout.toMillis(), TimeUnit.MILLISECONDS), StandardCharsets.UTF_8));
            } catch (InterruptedException e) {
                DiagsCommand.kill(process);
                Thread.currentThread().interrupt();
                throw new IOException(call + ": interrupted", e);
            } catch (ExecutionException | java.util.concurrent.TimeoutException e) {
                throw new IOException(call + ": its error stream could not be read: " + e.getMessage(), e);
            }
        }

        /** Stops the program: its answer is no longer wanted ({@link #await} then says so). */
        void kill() {
            stopped.set(true);
            DiagsCommand.kill(process);
        }

        private IOException timedOut() {
            return new IOException(call + ": no answer within " + timeout.toMillis() + " ms (killed)");
        }
    }

    /**
     * The first {@code max} bytes of a stream; with {@code drain}, the rest is read and dropped, so that a program
     * writing more than that to stderr does not stall on a full pipe (stdout past its limit is a failed answer: the
     * program is killed instead).
     */
    private static byte[] read(InputStream stream, int max, boolean drain) {
        try (stream) {
            byte[] head = stream.readNBytes(max);
            if (drain) {
                stream.transferTo(java.io.OutputStream.nullOutputStream());
            }
            return head;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void kill(Process process) {
        // its children too: one holding a pipe open would keep the reads waiting
        List<ProcessHandle> children = new ArrayList<>(process.descendants().toList());
        children.forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
    }
}
