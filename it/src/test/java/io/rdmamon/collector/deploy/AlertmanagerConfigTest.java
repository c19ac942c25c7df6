package io.rdmamon.collector.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * deploy/alertmanager/alertmanager.yml (docs/deploy.md "Alertmanager"): the real {@code amtool} accepts it, alerts are
 * grouped by replica, and its inhibition names alerts and labels the shipped rules have.
 */
class AlertmanagerConfigTest {
    private static final Path CONFIG = DeployTree.DEPLOY.resolve("alertmanager/alertmanager.yml");

    private static String amtool(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("amtool"));
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(60, TimeUnit.SECONDS), "amtool timed out");
        assertEquals(0, process.exitValue(), String.join(" ", command) + ":\n" + output);
        return output;
    }

    @Test
    void amtoolAcceptsTheConfigWithItsInhibitRules() throws Exception {
        assumeTrue(KustomizeTest.onPath("amtool"), "amtool is not installed (Debian package prometheus-alertmanager)");
        String output = amtool("check-config", CONFIG.toString());
        assertTrue(output.contains("SUCCESS"), output);
        assertTrue(output.contains("2 inhibit rules"), output);
        assertTrue(amtool("config", "routes", "test", "--config.file=" + CONFIG, "alertname=RdmaAgentStale",
                "replica=c-1", "node=n-1").contains("rdmamon-oncall"));
    }

    @Test
    void groupsByReplicaAndInhibitsWhatTheShippedAlertsLabel() throws IOException {
        ObjectMapper yaml = new ObjectMapper(new YAMLFactory());
        JsonNode config = yaml.readTree(CONFIG.toFile());
        assertTrue(config.at("/route/group_by").toString().contains("\"replica\""), config.at("/route").toString());
        String self = Files.readString(DeployTree.GRAFANA_RULES.resolve("rdmamon-self.yml"));
        String diagnosis = Files.readString(DeployTree.GRAFANA_RULES.resolve("rdmamon-alerts.yml"));
        for (String alert : List.of("RdmamonCollectorDown", "RdmamonMassAgentDisconnect")) {
            assertTrue(config.at("/inhibit_rules/0/source_matchers").toString().contains(alert), alert);
            assertTrue(self.contains("- alert: " + alert + "\n"), alert + " is no shipped self alert");
        }
        assertEquals("[\"replica\"]", config.at("/inhibit_rules/0/equal").toString());
        // the replica to match on: RdmaAgentStale keeps it, the self alerts make it from their instance
        assertTrue(diagnosis.contains("max by (node, replica) (rdma_agent_up == 0)"), "RdmaAgentStale keeps replica");
        assertEquals("[\"node\"]", config.at("/inhibit_rules/1/equal").toString());
    }
}
