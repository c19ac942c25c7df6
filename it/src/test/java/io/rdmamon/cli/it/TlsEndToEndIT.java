package io.rdmamon.cli.it;

import com.fasterxml.jackson.databind.JsonNode;
import io.rdmamon.collector.TestCertificate;
import io.rdmamon.protocol.testing.LoopbackPorts;
import io.rdmamon.protocol.testing.Waits;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Everything over TLS with tokens, each part its own process as in production: {@code rdmamon collector
 * --tls-cert --tls-key} (tokens from the environment), {@code rdmamon agent --collector https://… --ca-file
 * --token-file} streaming over wss, and the real Debian Prometheus scraping https with {@code tls_config.ca_file}
 * and a viewer bearer token.
 */
class TlsEndToEndIT {
    private static final Path ROCE_FIXTURE = Path.of("..", "agent", "src", "test", "fixtures", "mlx5-roce");
    private static final String VIEWER_TOKEN = "viewer-over-tls";

    @TempDir
    Path work;

    @Test
    void prometheusScrapesTheAgentsNodeOverHttps() throws Exception {
        assumeTrue(Files.isExecutable(PrometheusServer.BINARY), "the Debian prometheus package is not installed");
        assumeTrue(Files.isRegularFile(AgentProcess.JAR), "cli/target/rdmamon.jar is not built (run mvn verify)");
        TestCertificate certificate = TestCertificate.generate(work);
        Path agentToken = Files.writeString(work.resolve("agent.token"), "agent-over-tls\n");
        Path viewerToken = Files.writeString(work.resolve("viewer.token"), VIEWER_TOKEN + "\n");
        int port = LoopbackPorts.free();

        List<String> argv = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx128m", "-XX:+UseSerialGC", "-jar", AgentProcess.JAR.toAbsolutePath().toString(), "collector",
                "--listen", "127.0.0.1:" + port, "--tls-cert", certificate.certFile().toString(),
                "--tls-key", certificate.keyFile().toString()));
        Path collectorLog = work.resolve("collector.log");
        ProcessBuilder builder = new ProcessBuilder(argv).redirectErrorStream(true).redirectOutput(collectorLog.toFile());
        builder.environment().put("RDMAMON_AGENT_TOKEN_FILE", agentToken.toString());
        builder.environment().put("RDMAMON_VIEWER_TOKEN_FILE", viewerToken.toString());
        Process collector = builder.start();
        try (AgentProcess agent = AgentProcess.start(work, "fx-tls", ROCE_FIXTURE, "https://localhost:" + port,
                "--ca-file", certificate.certFile().toString(), "--token-file", agentToken.toString());
             PrometheusServer prometheus = PrometheusServer.start(Files.createDirectories(work.resolve("prometheus")),
                     List.of(new PrometheusServer.Target("localhost:" + port, Map.of())), VIEWER_TOKEN,
                     certificate.certFile(), List.of())) {
            // the node's series exist from its hello on; rdma_agent_up turns 1 with its first sample
            String upNow = "rdma_agent_up{node=\"fx-tls\"} == 1";
            JsonNode up = Waits.pollUntil(() -> prometheus.query(upNow), result -> result.size() == 1,
                    Duration.ofSeconds(45), Duration.ofMillis(500));
            if (up.size() != 1) {
                fail("rdma_agent_up of fx-tls never reached 1 in Prometheus over https: " + up
                        + "\n--- collector\n" + Files.readString(collectorLog) + "\n--- agent\n" + agent.log());
            }
            assertEquals("1", up.get(0).path("value").get(1).asText());
            String log = Files.readString(collectorLog);
            assertTrue(log.contains("dashboard https://127.0.0.1:" + port + "/"), log);
        } finally {
            collector.destroy();
            if (!collector.waitFor(10, TimeUnit.SECONDS)) {
                collector.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        }
    }
}
