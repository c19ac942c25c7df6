package io.rdmamon.cli.it;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.rdmamon.protocol.testing.LoopbackPorts;
import java.io.IOException;
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
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The real Debian {@code prometheus} binary, started on a free loopback port with a temporary
 * config and data directory, scraping one target every second. Closed, it stops the process.
 */
final class PrometheusServer implements AutoCloseable {
    static final Path BINARY = Path.of("/usr/bin/prometheus");
    static final Path PROMTOOL = Path.of("/usr/bin/promtool");

    private static final ObjectMapper JSON = new ObjectMapper();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private final Process process;
    private final int port;

    private PrometheusServer(Process process, int port) {
        this.process = process;
        this.port = port;
    }

    /** One scrape target, {@code host:port}, with the target labels Prometheus adds to its series. */
    record Target(String address, Map<String, String> labels) {
    }

    /** Starts Prometheus scraping {@code http://target/metrics} with the given rule files loaded. */
    static PrometheusServer start(Path workDir, String target, List<Path> ruleFiles) throws IOException, InterruptedException {
        return start(workDir, List.of(new Target(target, Map.of())), null, ruleFiles);
    }

    /**
     * Starts Prometheus scraping every target's {@code /metrics} in one job, sending
     * {@code bearerToken} (a viewer token) when it is not null, with the given rule files loaded.
     */
    static PrometheusServer start(Path workDir, List<Target> targets, String bearerToken, List<Path> ruleFiles)
            throws IOException, InterruptedException {
        return start(workDir, targets, bearerToken, null, ruleFiles);
    }

    /** As above, scraping over https and trusting the PEM CA certificate(s) in {@code caFile} when it is not null. */
    static PrometheusServer start(Path workDir, List<Target> targets, String bearerToken, Path caFile,
                                  List<Path> ruleFiles) throws IOException, InterruptedException {
        return start(workDir, targets, bearerToken, caFile, ruleFiles, null);
    }

    /** As above, with the job's {@code metric_relabel_configs} (YAML or JSON text) when not null. */
    static PrometheusServer start(Path workDir, List<Target> targets, String bearerToken, Path caFile,
                                  List<Path> ruleFiles, String metricRelabelConfigs) throws IOException, InterruptedException {
        return start(workDir, targets, bearerToken, caFile, ruleFiles, metricRelabelConfigs, null);
    }

    /** As above, sending its alerts to the Alertmanager at {@code alertmanager} ({@code host:port}) when not null. */
    static PrometheusServer start(Path workDir, List<Target> targets, String bearerToken, Path caFile,
                                  List<Path> ruleFiles, String metricRelabelConfigs, String alertmanager)
            throws IOException, InterruptedException {
        int port = LoopbackPorts.free();
        StringBuilder config = new StringBuilder()
                .append("global:\n  scrape_interval: 1s\n  evaluation_interval: 1s\n");
        if (alertmanager != null) {
            config.append("alerting:\n  alertmanagers:\n    - static_configs:\n        - targets: ['")
                    .append(alertmanager).append("']\n");
        }
        if (!ruleFiles.isEmpty()) {
            config.append("rule_files:\n");
            ruleFiles.forEach(f -> config.append("  - ").append(f.toAbsolutePath()).append('\n'));
        }
        config.append("scrape_configs:\n")
                .append("  - job_name: rdmamon\n")
                // rdmamon's series carry their own node label; keep them as exported.
                .append("    honor_labels: true\n");
        if (bearerToken != null) {
            config.append("    authorization:\n      credentials: '").append(bearerToken).append("'\n");
        }
        if (caFile != null) {
            config.append("    scheme: https\n    tls_config:\n      ca_file: '").append(caFile.toAbsolutePath()).append("'\n");
        }
        if (metricRelabelConfigs != null) {
            config.append("    metric_relabel_configs: ").append(metricRelabelConfigs).append('\n');
        }
        config.append("    static_configs:\n");
        for (Target target : targets) {
            config.append("      - targets: ['").append(target.address()).append("']\n");
            if (!target.labels().isEmpty()) {
                config.append("        labels:\n");
                target.labels().forEach((name, value) -> config.append("          ").append(name)
                        .append(": '").append(value).append("'\n"));
            }
        }
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
        ServerProcess.awaitReady("prometheus", process, server.base(), log, Duration.ofSeconds(30));
        return server;
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

    /**
     * Runs {@code promtool check rules} on the files (Debian ships promtool with prometheus).
     *
     * @throws AssertionError with promtool's output when it rejects them
     */
    static void checkRules(Path workDir, List<Path> ruleFiles) throws IOException, InterruptedException {
        List<String> argv = new java.util.ArrayList<>(List.of(PROMTOOL.toString(), "check", "rules"));
        ruleFiles.forEach(f -> argv.add(f.toAbsolutePath().toString()));
        Path output = workDir.resolve("promtool-check-rules.out");
        Process promtool = new ProcessBuilder(argv).redirectErrorStream(true).redirectOutput(output.toFile()).start();
        if (!promtool.waitFor(60, TimeUnit.SECONDS)) {
            promtool.destroyForcibly();
            throw new AssertionError("promtool check rules did not finish in 60 s");
        }
        if (promtool.exitValue() != 0) {
            throw new AssertionError("promtool check rules " + ruleFiles + " failed:\n" + Files.readString(output));
        }
    }

    String base() {
        return "http://127.0.0.1:" + port;
    }

    @Override
    public void close() throws InterruptedException {
        ServerProcess.stop(process);
    }
}
