package io.rdmamon.cli.it;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;

import io.rdmamon.protocol.testing.LoopbackPorts;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * The real Debian {@code prometheus-alertmanager} on a free loopback port (clustering off), loaded with a shipped
 * configuration whose only changes are the ones a test needs: every receiver posts to one webhook URL, and the route's
 * {@code group_wait} is shortened. Routes, grouping, intervals and inhibit rules stay as shipped. Closed, it stops
 * the process.
 */
final class AlertmanagerServer implements AutoCloseable {
    static final Path BINARY = Path.of("/usr/bin/prometheus-alertmanager");

    private static final ObjectMapper JSON = new ObjectMapper();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private final Process process;
    private final int port;

    private AlertmanagerServer(Process process, int port) {
        this.process = process;
        this.port = port;
    }

    /** Starts Alertmanager with {@code shippedConfig}, its receivers replaced by {@code webhook}, {@code group_wait} by {@code groupWait}. */
    static AlertmanagerServer start(Path workDir, Path shippedConfig, String webhook, String groupWait)
            throws IOException, InterruptedException {
        YAMLMapper yaml = new YAMLMapper();
        ObjectNode config = (ObjectNode) yaml.readTree(shippedConfig.toFile());
        ((ObjectNode) config.path("route")).put("group_wait", groupWait);
        for (JsonNode receiver : config.path("receivers")) {
            ((ObjectNode) receiver).putArray("webhook_configs").addObject().put("url", webhook);
        }
        Path configFile = workDir.resolve("alertmanager.yml");
        yaml.writeValue(configFile.toFile(), config);
        int port = LoopbackPorts.free();
        Path log = workDir.resolve("alertmanager.log");
        Process process = new ProcessBuilder(List.of(
                BINARY.toString(),
                "--config.file=" + configFile,
                "--storage.path=" + workDir.resolve("alertmanager-data"),
                "--web.listen-address=127.0.0.1:" + port,
                "--cluster.listen-address=")) // no gossip port: a lone Alertmanager, loopback only
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        AlertmanagerServer server = new AlertmanagerServer(process, port);
        ServerProcess.awaitReady("alertmanager", process, server.base(), log, Duration.ofSeconds(30));
        return server;
    }

    /** Every alert Alertmanager holds (API v2), with {@code status.state} active or suppressed and {@code status.inhibitedBy}. */
    JsonNode alerts() throws IOException, InterruptedException {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(base() + "/api/v2/alerts"))
                .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new IOException("alertmanager /api/v2/alerts answered " + response.statusCode() + ": " + response.body());
        }
        return JSON.readTree(response.body());
    }

    /** {@code host:port}, as Prometheus's {@code alerting} config names it. */
    String address() {
        return "127.0.0.1:" + port;
    }

    private String base() {
        return "http://" + address();
    }

    @Override
    public void close() throws InterruptedException {
        ServerProcess.stop(process);
    }
}
