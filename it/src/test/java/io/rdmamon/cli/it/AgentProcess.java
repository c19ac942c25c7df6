package io.rdmamon.cli.it;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** An {@code rdmamon agent} running as its own JVM process from the shaded jar, as on a real node. */
final class AgentProcess implements AutoCloseable {
    /** The cli module's shaded jar: its package phase runs before this module's integration tests. */
    static final Path JAR = Path.of("..", "cli", "target", "rdmamon.jar");

    private final Process process;
    private final Path log;

    private AgentProcess(Process process, Path log) {
        this.process = process;
        this.log = log;
    }

    static AgentProcess start(Path workDir, String node, Path hostRoot, String collectorUrl, String... extra)
            throws IOException {
        List<String> args = new ArrayList<>(List.of("--collector", collectorUrl, "--node", node, "--interval", "1s",
                "--host-root", hostRoot.toAbsolutePath().toString()));
        args.addAll(List.of(extra));
        return start(workDir, node, List.of("-Xmx96m", "-XX:+UseSerialGC"), args);
    }

    /** {@code rdmamon agent} with {@code jvmFlags} (e.g. the DaemonSet's) and {@code args} after {@code agent}. */
    static AgentProcess start(Path workDir, String node, List<String> jvmFlags, List<String> args) throws IOException {
        List<String> argv = new ArrayList<>();
        argv.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        argv.addAll(jvmFlags);
        argv.addAll(List.of("-jar", JAR.toAbsolutePath().toString(), "agent"));
        argv.addAll(args);
        Path log = workDir.resolve("agent-" + node + ".log");
        Process process = new ProcessBuilder(argv).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        return new AgentProcess(process, log);
    }

    String log() throws IOException {
        return Files.readString(log);
    }

    boolean isAlive() {
        return process.isAlive();
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }
}
