package io.rdmamon.lab;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.rdmamon.protocol.testing.LoopbackPorts;
import io.vertx.core.json.JsonObject;

/**
 * The lab's collector: {@code rdmamon collector} from the shaded jar, a JVM on the host's loopback, which the VMs'
 * agents reach through qemu's forward ({@link LabVm#COLLECTOR_URL}). Its log is in the lab's work folder.
 */
final class LabCollector implements AutoCloseable {
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    final int port;
    final Path log;
    private final Process process;
    /** Kills the collector should the test JVM be stopped before {@link #close()} (a killed build left it running). */
    private final Thread cleanup;

    private LabCollector(int port, Path log, Process process) {
        this.port = port;
        this.log = log;
        this.process = process;
        this.cleanup = new Thread(process::destroyForcibly, "lab-collector-cleanup");
        Runtime.getRuntime().addShutdownHook(cleanup);
    }

    static LabCollector start(Path workDir, int port, JsonObject config) throws IOException {
        return start(workDir, port, config, List.of());
    }

    /**
     * @param debugPackages packages whose debug lines go to the log too (the pingmesh's one line per round says what
     *                      each round started, skipped and how its probes ended: what a failed lab test needs)
     */
    static LabCollector start(Path workDir, int port, JsonObject config, List<String> debugPackages) throws IOException {
        Path configFile = workDir.resolve("collector.json");
        Files.writeString(configFile, config.encodePrettily());
        Path logging = workDir.resolve("logging.properties");
        StringBuilder levels = new StringBuilder(".level=INFO\n");
        debugPackages.forEach(name -> levels.append(name).append(".level=FINE\n"));
        Files.writeString(logging, levels);
        Path log = workDir.resolve("collector.log");
        Process process = new ProcessBuilder(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m", "-Djava.util.logging.config.file=" + logging, "-jar",
                LabBootFiles.REPOSITORY.resolve("cli/target/rdmamon.jar").toString(), "collector",
                "--listen", "127.0.0.1:" + port, "--config", configFile.toString()))
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        return new LabCollector(port, log, process);
    }

    JsonObject get(String path) throws IOException, InterruptedException {
        return new JsonObject(text(path));
    }

    String text(String path) throws IOException, InterruptedException {
        return send(HttpRequest.newBuilder(uri(path)).GET(), path);
    }

    JsonObject post(String path, JsonObject body) throws IOException, InterruptedException {
        return new JsonObject(send(HttpRequest.newBuilder(uri(path)).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body.encode())), path));
    }

    private String send(HttpRequest.Builder request, String path) throws IOException, InterruptedException {
        HttpResponse<String> response = HTTP.send(request.timeout(Duration.ofSeconds(10)).build(),
                HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() / 100 != 2) {
            throw new IOException(path + ": " + response.statusCode() + " " + response.body());
        }
        return response.body();
    }

    private URI uri(String path) {
        return URI.create("http://127.0.0.1:" + port + path);
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(15, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor(15, TimeUnit.SECONDS);
        }
        try {
            Runtime.getRuntime().removeShutdownHook(cleanup);
        } catch (IllegalStateException shuttingDown) {
            // the hook runs anyway, on a process already gone
        }
    }
}
