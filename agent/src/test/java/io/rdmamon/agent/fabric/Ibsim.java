package io.rdmamon.agent.fabric;

import io.rdmamon.protocol.testing.Waits;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

/**
 * A simulated InfiniBand subnet for tests: ibsim (ibsim-utils) serving a net file on its own socket name
 * ({@code IBSIM_SOCKNAME}, unique per instance, so that tests never share a simulator), with LIDs assigned by one
 * pass of the real opensm ({@code opensm -o}) under libumad2sim's preload. {@link #environment()} is what a diags
 * tool needs to talk to it; {@link #console} types on ibsim's console (its stdin).
 */
final class Ibsim implements AutoCloseable {
    static final Path PRELOAD = Path.of("/usr/lib/x86_64-linux-gnu/umad2sim/libumad2sim.so");
    private static final Duration START_LIMIT = Duration.ofSeconds(60);

    private final Process ibsim;
    private final OutputStream console;
    private final StringBuffer output = new StringBuffer();
    private final Map<String, String> environment;

    /** Whether ibsim, opensm, the preload and infiniband-diags are installed (scripts/test.sh installs them). */
    static boolean installed() {
        return Files.isExecutable(Path.of("/usr/bin/ibsim")) && Files.exists(PRELOAD)
                && Files.isExecutable(Path.of("/usr/sbin/opensm")) && Files.isExecutable(Path.of("/usr/sbin/ibnetdiscover"));
    }

    Ibsim(Path dir, String netFile) throws Exception {
        Path net = Files.writeString(dir.resolve("net"), netFile);
        environment = Map.of("IBSIM_SOCKNAME", "rdmamon-" + UUID.randomUUID().toString().substring(0, 8),
                "LD_PRELOAD", PRELOAD.toString());
        ProcessBuilder builder = new ProcessBuilder(List.of("ibsim", "-s", net.toString())).redirectErrorStream(true);
        builder.environment().put("IBSIM_SOCKNAME", environment.get("IBSIM_SOCKNAME"));
        ibsim = builder.start();
        console = ibsim.getOutputStream();
        Thread reader = new Thread(() -> drain(ibsim.getInputStream()), "ibsim-output");
        reader.setDaemon(true);
        reader.start();
        Waits.waitFor(() -> output.indexOf("sim>") >= 0 || !ibsim.isAlive(), "ibsim's prompt", START_LIMIT);
        if (!ibsim.isAlive()) {
            throw new IllegalStateException("ibsim exited: " + output);
        }
        runOpensmOnce(dir);
    }

    Map<String, String> environment() {
        return environment;
    }

    /** Types {@code command} on ibsim's console and waits until it printed {@code confirmation}. */
    void console(String command, String confirmation) throws Exception {
        int from = output.length();
        console.write((command + "\n").getBytes(StandardCharsets.UTF_8));
        console.flush();
        Waits.waitFor(() -> output.indexOf(confirmation, from) >= 0, "ibsim to answer " + command);
    }

    /**
     * opensm's one sweep assigns the LIDs the PMA queries need, and brings a relinked port from Init to Active; -o
     * makes it exit after it.
     */
    void runOpensmOnce(Path dir) throws Exception {
        ProcessBuilder builder = new ProcessBuilder(List.of("opensm", "-o", "-f", dir.resolve("opensm.log").toString()))
                .redirectErrorStream(true).redirectOutput(dir.resolve("opensm.out").toFile());
        builder.environment().putAll(environment);
        Process opensm = builder.start();
        if (!opensm.waitFor(START_LIMIT.toSeconds(), TimeUnit.SECONDS)) {
            opensm.destroyForcibly();
            throw new IllegalStateException("opensm -o did not finish within " + START_LIMIT);
        }
        if (opensm.exitValue() != 0) {
            throw new IllegalStateException("opensm -o exited " + opensm.exitValue() + ": "
                    + Files.readString(dir.resolve("opensm.out")));
        }
    }

    /** Runs a diags tool against the simulator (argv), returning its stdout. */
    String run(String... argv) throws IOException {
        return new DiagsCommand(environment).run(List.of(argv), Duration.ofSeconds(60)).stdout();
    }

    private void drain(InputStream in) {
        byte[] buffer = new byte[8192];
        try (in) {
            int n;
            while ((n = in.read(buffer)) >= 0) {
                output.append(new String(buffer, 0, n, StandardCharsets.UTF_8));
            }
        } catch (IOException e) {
            output.append("\n(ibsim output lost: ").append(e.getMessage()).append(")\n");
        }
    }

    @Override
    public void close() throws Exception {
        ibsim.destroy();
        if (!ibsim.waitFor(5, TimeUnit.SECONDS)) {
            ibsim.destroyForcibly();
        }
    }
}
