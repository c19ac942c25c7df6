package io.rdmamon.agent.lldp;

import io.rdmamon.agent.capability.UnsupportedCapabilityException;
import io.rdmamon.agent.ethtool.InterfaceNames;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Runs {@code lldpctl -f json -- <if>} (argv, never a shell) and returns what it printed: how a live host (root
 * {@code /}) asks lldpd for a netdev's neighbour when no capture is under the root. lldpctl talks to lldpd over its
 * unix socket and answers in milliseconds; one that has not exited within the timeout is killed, so a wedged daemon
 * costs one bounded wait. A program that cannot be started (lldpd not installed) is an absent capability, not a
 * failure ({@link UnsupportedCapabilityException}).
 */
public final class LldpctlCommand {
    /** lldpd's client, found on {@code PATH}. */
    public static final String DEFAULT_PROGRAM = "lldpctl";
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(2);
    /** One interface's neighbours are a few KiB; far more is not lldpctl's answer. */
    static final int MAX_OUTPUT_BYTES = 1024 * 1024;
    private static final int MAX_ERROR_BYTES = 4096;

    private final String program;
    private final Duration timeout;

    /** @param program a path, or a name looked up on {@code PATH} */
    public LldpctlCommand(String program, Duration timeout) {
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("lldpctl timeout must be positive: " + timeout);
        }
        this.program = program;
        this.timeout = timeout;
    }

    /** {@link #DEFAULT_PROGRAM} bounded by {@link #DEFAULT_TIMEOUT}. */
    public static LldpctlCommand standard() {
        return new LldpctlCommand(DEFAULT_PROGRAM, DEFAULT_TIMEOUT);
    }

    /** The command line for {@code ifname}, as problems name it: {@code lldpctl -f json eth0}. */
    public String call(String ifname) {
        return program + " -f json " + ifname;
    }

    /**
     * lldpctl's standard output for {@code ifname}.
     *
     * @throws UnsupportedCapabilityException when the program cannot be started
     * @throws IOException                    naming the call when it exits non-zero (with its first line on stderr),
     *                                        outlives the timeout or prints too much
     */
    public String run(String ifname) throws IOException {
        InterfaceNames.requireValid(ifname);
        Process process;
        try {
            // "--": a netdev may be named "-d"; lldpctl's getopt must not take it for an option
            process = new ProcessBuilder(List.of(program, "-f", "json", "--", ifname)).start();
        } catch (IOException e) {
            throw new UnsupportedCapabilityException(call(ifname) + ": cannot run " + program
                    + " (lldpd not installed?): " + e.getMessage());
        }
        process.getOutputStream().close();
        AtomicBoolean killed = new AtomicBoolean();
        process.onExit().orTimeout(timeout.toMillis(), TimeUnit.MILLISECONDS).exceptionally(timedOut -> {
            killed.set(true);
            // its children too: one holding the pipe open would keep the read below waiting
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
            return null;
        });
        byte[] output;
        byte[] error;
        try (InputStream out = process.getInputStream(); InputStream err = process.getErrorStream()) {
            output = out.readNBytes(MAX_OUTPUT_BYTES + 1);
            if (output.length > MAX_OUTPUT_BYTES) {
                process.destroyForcibly();
                throw new IOException(call(ifname) + ": printed more than " + MAX_OUTPUT_BYTES + " bytes");
            }
            error = err.readNBytes(MAX_ERROR_BYTES);
        } catch (IOException e) {
            // killing the process closes its pipes under the read ("Stream closed")
            throw killed.get() ? timedOut(ifname) : e;
        }
        int exit;
        try {
            exit = process.waitFor();
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IOException(call(ifname) + ": interrupted", e);
        }
        if (killed.get()) {
            throw timedOut(ifname);
        }
        if (exit != 0) {
            String reason = new String(error, StandardCharsets.UTF_8).lines().filter(l -> !l.isBlank()).findFirst()
                    .orElse("no message");
            throw new IOException(call(ifname) + ": exit " + exit + ": " + reason.strip());
        }
        return new String(output, StandardCharsets.UTF_8);
    }

    private IOException timedOut(String ifname) {
        return new IOException(call(ifname) + ": no answer within " + timeout.toMillis() + " ms (killed)");
    }
}
