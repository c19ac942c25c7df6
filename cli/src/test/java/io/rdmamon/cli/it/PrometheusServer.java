package io.rdmamon.cli.it;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The real Debian {@code prometheus} binary, started on a free loopback port with a temporary
 * config and data directory, scraping one target every second. Closed, it stops the process.
 */
final class PrometheusServer implements AutoCloseable {
    static final Path BINARY = Path.of("/usr/bin/prometheus");

    private static final ObjectMapper JSON = new ObjectMapper();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private final Process process;
    private final int port;

    private PrometheusServer(Process process, int port) {
        this.process = process;
        this.port = port;
    }

    /** Starts Prometheus scraping {@code http://target/metrics} with the given rule files loaded. */
    static PrometheusServer start(Path workDir, String target, List<Path> ruleFiles) throws IOException, InterruptedException {
        int port = freePort();
        StringBuilder config = new StringBuilder()
                .append("global:\n  scrape_interval: 1s\n  evaluation_interval: 1s\n");
        if (!ruleFiles.isEmpty()) {
            config.append("rule_files:\n");
            ruleFiles.forEach(f -> config.append("  - ").append(f.toAbsolutePath()).append('\n'));
        }
        config.append("scrape_configs:\n")
                .append("  - job_name: rdmamon\n")
                // rdmamon's series carry their own node label; keep them as exported.
                .append("    honor_labels: true\n")
                .append("    static_configs:\n")
                .append("      - targets: ['").append(target).append("']\n");
        Path configFile = workDir.resolve("prometheus.yml");
        Files.writeString(configFile, config.toString());
        Path log = workDir.resolve("prometheus.log");
        Process process = new ProcessBuilder(List.of(
                BINARY.toString(),
                "--config.file=" + configFile,
                "--storage.tsdb.path=" + workDir.resolve("data"),
                "--web.listen-address=127.0.0.1:" + port))
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        PrometheusServer server = new PrometheusServer(process, port);
        server.awaitReady(Duration.ofSeconds(30), log);
        return server;
    }

    private void awaitReady(Duration timeout, Path log) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IOException("prometheus exited with " + process.exitValue() + ": " + Files.readString(log));
            }
            try {
                HttpResponse<String> response = http.send(
                        HttpRequest.newBuilder(URI.create(base() + "/-/ready")).build(),
                        HttpResponse.BodyHandlers.ofString());
                if (response.statusCode() == 200) {
                    return;
                }
            } catch (IOException notYet) {
                // not listening yet
            }
            Thread.sleep(200);
        }
        throw new IOException("prometheus not ready after " + timeout + ": " + Files.readString(log));
    }

    /** The {@code data.result} array of an instant query. */
    JsonNode query(String promql) throws IOException, InterruptedException {
        return api("/api/v1/query?query=" + URLEncoder.encode(promql, StandardCharsets.UTF_8)).path("data").path("result");
    }

    /** The {@code data.alerts} array of the alerts endpoint. */
    JsonNode alerts() throws IOException, InterruptedException {
        return api("/api/v1/alerts").path("data").path("alerts");
    }

    private JsonNode api(String pathAndQuery) throws IOException, InterruptedException {
        HttpResponse<String> response = http.send(
                HttpRequest.newBuilder(URI.create(base() + pathAndQuery)).timeout(Duration.ofSeconds(10)).build(),
                HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new IOException("prometheus " + pathAndQuery + " answered " + response.statusCode() + ": " + response.body());
        }
        return JSON.readTree(response.body());
    }

    String base() {
        return "http://127.0.0.1:" + port;
    }

    static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }
}
