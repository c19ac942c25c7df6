package io.rdmamon.agent.probe;

import io.rdmamon.protocol.probe.PerftestTest;

import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * Runs the real perftest binary as a child process, from an argv list (never a shell).
 *
 * <p>The child gets its own session and process group through util-linux {@code setsid} (which
 * execs in place, so the child's pid is its group id), so that a kill reaches whatever it started
 * too. Without {@code setsid} (or without native signals) the kill falls back to the child and its
 * descendants as {@link ProcessHandle} sees them.
 */
public final class ProcessPerftestLauncher implements PerftestLauncher {
    private static final System.Logger LOG = System.getLogger(ProcessPerftestLauncher.class.getName());
    /** perftest's name on PATH (docs/architecture.md "The rdmamon command"). */
    public static final String DEFAULT_BINARY = "ib_write_bw";
    static final Duration KILL_GRACE = Duration.ofSeconds(2);
    private static final List<Path> SETSID = List.of(Path.of("/usr/bin/setsid"), Path.of("/bin/setsid"));

    private final Map<PerftestTest, String> binaries;
    private final Path setsid;

    /**
     * @param bandwidthBinary {@code ib_write_bw}: a path, or a name looked up on PATH at each launch (e.g.
     *                        {@link #DEFAULT_BINARY})
     * @param latencyBinary   {@code ib_send_lat}, the same way (see {@link #latencyBinaryBeside})
     */
    public ProcessPerftestLauncher(String bandwidthBinary, String latencyBinary) {
        this.binaries = Map.of(PerftestTest.WRITE_BW, bandwidthBinary, PerftestTest.SEND_LAT, latencyBinary);
        this.setsid = ProcessGroupSignals.available()
                ? SETSID.stream().filter(Files::isExecutable).findFirst().orElse(null) : null;
    }

    /** {@code bandwidthBinary} for bandwidth probes, {@link #latencyBinaryBeside} it for latency probes. */
    public ProcessPerftestLauncher(String bandwidthBinary) {
        this(bandwidthBinary, latencyBinaryBeside(bandwidthBinary));
    }

    /**
     * The {@code ib_send_lat} that goes with an {@code ib_write_bw}: in the same directory when that is a path (a
     * perftest built or installed elsewhere ships both), else looked up on PATH like it.
     */
    public static String latencyBinaryBeside(String bandwidthBinary) {
        if (!bandwidthBinary.contains("/")) {
            return PerftestTest.SEND_LAT.program();
        }
        Path directory = Path.of(bandwidthBinary).getParent();
        return directory == null ? PerftestTest.SEND_LAT.program()
                : directory.resolve(PerftestTest.SEND_LAT.program()).toString();
    }

    /**
     * The executable {@code binary} names: itself when it has a slash, else the first match on PATH.
     *
     * @throws IOException naming the binary when there is none
     */
    public static Path resolve(String binary) throws IOException {
        if (binary.contains("/")) {
            Path path = Path.of(binary);
            if (!Files.isRegularFile(path) || !Files.isExecutable(path)) {
                throw new IOException("perftest binary " + binary + " is not an executable file");
            }
            return path;
        }
        String pathVariable = Optional.ofNullable(System.getenv("PATH")).orElse("/usr/bin:/bin");
        for (String dir : pathVariable.split(File.pathSeparator)) {
            if (!dir.isEmpty()) {
                Path candidate = Path.of(dir, binary);
                if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
                    return candidate;
                }
            }
        }
        throw new IOException("perftest binary " + binary + " not found on PATH (" + pathVariable + ")");
    }

    @Override
    public PerftestRun launch(PerftestTest test, List<String> arguments, Consumer<String> onLine) throws IOException {
        List<String> command = new ArrayList<>();
        if (setsid != null) {
            command.add(setsid.toString());
        }
        command.add(resolve(binaries.get(test)).toString());
        command.addAll(arguments);
        Process process = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).start();
        return new ChildRun(test, process, setsid != null, onLine);
    }

    private static final class ChildRun extends OutputKeepingRun {
        private final Process process;
        private final boolean ownGroup;
        private final AtomicBoolean killed = new AtomicBoolean();
        private final Thread reader;

        ChildRun(PerftestTest test, Process process, boolean ownGroup, Consumer<String> onLine) {
            super(test, onLine);
            this.process = process;
            this.ownGroup = ownGroup;
            this.reader = new Thread(this::read, "perftest-output-" + process.pid());
            reader.setDaemon(true);
            reader.start();
            process.onExit().thenAccept(p -> {
                if (ownGroup) {
                    // perftest leaves nothing behind; anything that is still in its group now is an orphan
                    signalGroup(ProcessGroupSignals.SIGKILL);
                }
                // a grandchild may hold the pipe open after the child exits: wait a little, not for ever
                join(reader, Duration.ofMillis(500));
                exited(p.exitValue());
            });
        }

        private void read() {
            try (var in = new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8)) {
                BoundedLines.forEach(in, BoundedLines.DEFAULT_MAX_CHARS, this::printed);
            } catch (IOException e) {
                // the pipe closed under us (process killed): what was read is kept
            }
        }

        @Override
        public boolean listening(int tcpPort) {
            var inodes = ListeningSockets.listeningInodes(tcpPort);
            return ListeningSockets.holdsAny(process.pid(), inodes)
                    || process.descendants().anyMatch(child -> ListeningSockets.holdsAny(child.pid(), inodes));
        }

        @Override
        public void kill() {
            if (!killed.compareAndSet(false, true)) {
                return;
            }
            Thread killer = new Thread(this::terminateGroup, "perftest-kill-" + process.pid());
            killer.setDaemon(true);
            killer.start();
        }

        private void terminateGroup() {
            List<ProcessHandle> descendants = process.descendants().toList();
            if (ownGroup) {
                signalGroup(ProcessGroupSignals.SIGTERM);
            } else {
                process.destroy();
                descendants.forEach(ProcessHandle::destroy);
            }
            try {
                process.waitFor(KILL_GRACE.toMillis(), TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            // SIGKILL even when the child went: whatever it left in its group goes with it
            if (ownGroup) {
                signalGroup(ProcessGroupSignals.SIGKILL);
            } else {
                process.destroyForcibly();
                descendants.forEach(ProcessHandle::destroyForcibly);
            }
        }

        /** The child's pid is its group id (setsid execs in place). */
        private void signalGroup(int signal) {
            try {
                ProcessGroupSignals.signal(process.pid(), signal);
            } catch (IllegalStateException e) {
                LOG.log(System.Logger.Level.WARNING, "cannot stop perftest: {0}", e.getMessage());
            }
        }

        private static void join(Thread thread, Duration limit) {
            try {
                thread.join(limit.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
