package io.rdmamon.lab;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.rdmamon.protocol.testing.Waits;

/**
 * One lab VM ({@code scripts/lab/vm.sh}): Debian's kernel under qemu, the host's root read-only over 9p as its
 * userland, its own work folder writable at {@code /run/lab}, a control NIC on qemu's user network (restricted: the
 * only way out is the collector forward, {@code 10.0.2.100:9470}) and a fabric NIC on the lab's bridge with
 * Soft-RoCE {@code rxe0} on it ({@code scripts/lab/guest.sh}). Commands run in it through files in
 * the work folder; {@link #close()} kills qemu.
 */
public final class LabVm implements AutoCloseable {
    /** The collector as the guests see it; qemu forwards it to the host's loopback. */
    public static final String COLLECTOR_URL = "http://10.0.2.100:9470";
    /** The rxe device every lab VM has, on its fabric link {@code eth1}. */
    public static final String DEVICE = "rxe0";
    public static final String FABRIC_NETDEV = "eth1";

    public final String name;
    public final int index;
    public final Path dir;
    private final Process qemu;
    private final AtomicInteger commands = new AtomicInteger();

    private LabVm(String name, int index, Path dir, Process qemu) {
        this.name = name;
        this.index = index;
        this.dir = dir;
        this.qemu = qemu;
    }

    /** The VM's fabric address, {@code 10.77.0.<index>}. */
    public String fabricAddress() {
        return "10.77.0." + index;
    }

    static LabVm boot(LabBootFiles boot, LabNetwork network, Path dir, String name, int index, int cpus,
                      int collectorPort, String tap) throws IOException, InterruptedException {
        // a folder left by an earlier run holds finished commands of the same numbers
        deleteRecursively(dir);
        Files.createDirectories(dir.resolve("cmd"));
        Files.writeString(dir.resolve("hostname"), name);
        Files.writeString(dir.resolve("index"), Integer.toString(index));
        Files.copy(LabBootFiles.REPOSITORY.resolve("scripts/lab/guest.sh"), dir.resolve("guest.sh"),
                StandardCopyOption.REPLACE_EXISTING);
        // scripts/lab/vm.sh holds qemu's command line for the tests and scripts/lab.sh alike; it execs qemu
        List<String> argv = List.of(LabBootFiles.REPOSITORY.resolve("scripts/lab/vm.sh").toString(), name,
                Integer.toString(index), dir.toString(), tap, Integer.toString(collectorPort), Integer.toString(cpus),
                boot.kernel().toString(), boot.initrd().toString());
        Process qemu = new ProcessBuilder(argv).redirectErrorStream(true)
                .redirectOutput(dir.resolve("qemu.log").toFile()).start();
        LabVm vm = new LabVm(name, index, dir, qemu);
        try {
            network.attach(tap);
        } catch (RuntimeException | IOException e) {
            vm.close();
            throw e;
        }
        return vm;
    }

    /** Waits until the guest has its links and rxe0 up ({@code ready}), failing with the console's tail. */
    void awaitReady(Duration limit) throws InterruptedException {
        Waits.waitFor(() -> Files.exists(dir.resolve("ready")) || Files.exists(dir.resolve("failed"))
                || !qemu.isAlive(), name + " to boot", limit);
        if (!Files.exists(dir.resolve("ready"))) {
            throw new AssertionError(name + " did not come up: " + diagnostics());
        }
    }

    /** The result of a command run in the guest by {@code bash}: exit status and stdout+stderr. */
    public record Result(int rc, String output) {
    }

    /** Runs {@code script} in the guest (bash, the host's userland) and returns its result; fails after {@code limit}. */
    public Result run(String script, Duration limit) throws IOException, InterruptedException {
        String n = String.format("%04d", commands.incrementAndGet());
        Path file = dir.resolve("cmd").resolve(n + ".sh");
        Path staged = dir.resolve("cmd").resolve(n + ".sh.tmp");
        Files.writeString(staged, script);
        Files.move(staged, file, StandardCopyOption.ATOMIC_MOVE);
        Path rc = dir.resolve("cmd").resolve(n + ".rc");
        Waits.waitFor(() -> Files.exists(rc) || !qemu.isAlive(), name + " to run: " + script, limit);
        if (!Files.exists(rc)) {
            throw new AssertionError(name + " died running: " + script + "; " + diagnostics());
        }
        return new Result(Integer.parseInt(Files.readString(rc).strip()),
                Files.readString(dir.resolve("cmd").resolve(n + ".out")));
    }

    /** Runs {@code script} and returns its output, failing unless it exits 0. */
    public String require(String script, Duration limit) throws IOException, InterruptedException {
        Result result = run(script, limit);
        if (result.rc() != 0) {
            throw new AssertionError(name + ": `" + script + "` exited " + result.rc() + ": " + result.output());
        }
        return result.output();
    }

    /** A file of the VM's work folder ({@code /run/lab} in the guest). */
    public Path file(String name) {
        return dir.resolve(name);
    }

    /** The guest's console and the command loop's log, for failure messages. */
    public String diagnostics() {
        return "console: " + tail(dir.resolve("console.log")) + "; guest.log: " + tail(dir.resolve("guest.log"))
                + "; qemu: " + tail(dir.resolve("qemu.log"));
    }

    private static void deleteRecursively(Path dir) throws IOException {
        if (Files.exists(dir)) {
            try (var paths = Files.walk(dir)) {
                for (Path path : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
                    Files.delete(path);
                }
            }
        }
    }

    private static String tail(Path file) {
        try {
            if (!Files.exists(file)) {
                return "(none)";
            }
            String text = new String(Files.readAllBytes(file), StandardCharsets.UTF_8);
            return text.substring(Math.max(0, text.length() - 1500));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() throws InterruptedException {
        qemu.destroyForcibly();
        qemu.waitFor(20, TimeUnit.SECONDS);
    }
}
