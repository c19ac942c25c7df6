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

    Output run(List<String> argv, Duration timeout) throws IOException {
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
        AtomicBoolean killed = new AtomicBoolean();
        process.onExit().orTimeout(timeout.toMillis(), TimeUnit.MILLISECONDS).exceptionally(timedOut -> {
            killed.set(true);
            kill(process);
            return null;
        });
        CompletableFuture<byte[]> error = CompletableFuture.supplyAsync(() -> read(process.getErrorStream(),
                MAX_ERROR_BYTES));
        byte[] output;
        try (InputStream out = process.getInputStream()) {
            output = out.readNBytes(MAX_OUTPUT_BYTES + 1);
        } catch (IOException e) {
            kill(process);
            throw killed.get() ? timedOut(call, timeout) : e;
        }
        if (output.length > MAX_OUTPUT_BYTES) {
            kill(process);
            throw new IOException(call + ": printed more than " + MAX_OUTPUT_BYTES + " bytes");
        }
        try {
            int exit = process.waitFor();
            if (killed.get()) {
                throw timedOut(call, timeout);
            }
            return new Output(exit, new String(output, StandardCharsets.UTF_8),
                    new String(error.get(timeout.toMillis(), TimeUnit.MILLISECONDS), StandardCharsets.UTF_8));
        } catch (InterruptedException e) {
            kill(process);
            Thread.currentThread().interrupt();
            throw new IOException(call + ": interrupted", e);
        } catch (ExecutionException | java.util.concurrent.TimeoutException e) {
            throw new IOException(call + ": its error stream could not be read: " + e.getMessage(), e);
        }
    }

    private static byte[] read(InputStream stream, int max) {
        try (stream) {
            byte[] head = stream.readNBytes(max);
            stream.transferTo(java.io.OutputStream.nullOutputStream());
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

    private static IOException timedOut(String call, Duration timeout) {
        return new IOException(call + ": no answer within " + timeout.toMillis() + " ms (killed)");
    }
}
