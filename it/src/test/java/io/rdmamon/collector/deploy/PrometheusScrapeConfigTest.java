package io.rdmamon.collector.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** deploy/prometheus/rdmamon-scrape.yml: accepted by promtool, and scraping the way the ServiceMonitor does. */
class PrometheusScrapeConfigTest {
    private static final Path SCRAPE_CONFIG = DeployTree.DEPLOY.resolve("prometheus/rdmamon-scrape.yml");

    @Test
    void the_static_scrape_matches_the_servicemonitor() {
        JsonNode job = DeployTree.readDocument(SCRAPE_CONFIG).at("/scrape_configs/0");
        JsonNode endpoint = DeployTree.readDocument(DeployTree.BASE.resolve("servicemonitor.yaml")).at("/spec/endpoints/0");

        assertEquals(endpoint.path("path").asText(), job.path("metrics_path").asText());
        assertEquals(endpoint.path("interval").asText(), job.path("scrape_interval").asText());
        assertEquals(endpoint.path("honorLabels").asBoolean(), job.path("honor_labels").asBoolean());
        assertEquals(endpoint.at("/authorization/type").asText(), job.at("/authorization/type").asText());
        assertTrue(job.at("/static_configs/0/targets/0").asText().endsWith(":9470"), "the collector's default port");
        // the replica copy of rdma_agent_up, then the one instance of every rdma_* series
        for (int i = 0; i < job.path("metric_relabel_configs").size(); i++) {
            JsonNode relabel = endpoint.path("metricRelabelings").get(i);
            JsonNode staticRelabel = job.path("metric_relabel_configs").get(i);
            assertEquals(relabel.path("sourceLabels").toString(), staticRelabel.path("source_labels").toString());
            assertEquals(relabel.path("regex").asText(), staticRelabel.path("regex").asText());
            assertEquals(relabel.path("targetLabel").asText(), staticRelabel.path("target_label").asText());
            assertEquals(relabel.path("replacement").asText(), staticRelabel.path("replacement").asText(),
                    "a node's rdma_* series look the same from either setup, whichever replica exported them");
        }
    }

    @Test
    void promtool_accepts_the_config_with_the_grafana_rule_files(@TempDir Path dir) throws Exception {
        assumeTrue(KustomizeTest.onPath("promtool"), "promtool is not installed");
        Path token = Files.writeString(dir.resolve("viewer.token"), "t0ken\n");
        Path config = Files.writeString(dir.resolve("prometheus.yml"), Files.readString(SCRAPE_CONFIG)
                .replace("/etc/prometheus/secrets/rdmamon-viewer.token", token.toString()));
        Path rules = Files.createDirectories(dir.resolve("rules"));
        List<Path> ruleFiles = List.of();
        if (Files.isDirectory(DeployTree.GRAFANA_RULES)) {
            try (Stream<Path> files = Files.list(DeployTree.GRAFANA_RULES)) {
                ruleFiles = files.filter(f -> f.toString().endsWith(".yml")).toList();
            }
        }
        for (Path file : ruleFiles) {
            Files.copy(file, rules.resolve(file.getFileName()));
        }

        Process process = new ProcessBuilder("promtool", "check", "config", config.toString()).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(60, TimeUnit.SECONDS), "promtool timed out");

        assertEquals(0, process.exitValue(), output);
        for (Path file : ruleFiles) {
            assertTrue(output.contains(file.getFileName().toString()),
                    file.getFileName() + " is not picked up by rule_files (name it rdmamon-*.yml): " + output);
        }
    }
}
