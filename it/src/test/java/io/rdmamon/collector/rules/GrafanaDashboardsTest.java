package io.rdmamon.collector.rules;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static io.rdmamon.collector.rules.GrafanaFiles.DASHBOARDS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The Grafana dashboards of grafana/dashboards: importable as they are (no id, a datasource
 * variable instead of import-time inputs), templated by node/device/port, every panel with
 * queries over known rdmamon metrics and a unit, every query valid PromQL.
 */
class GrafanaDashboardsTest {
    private static final String DATASOURCE_UID = "${datasource}";
    private static final Set<String> EXPECTED = Set.of("fleet-overview.json", "port-detail.json", "probes.json", "erdma.json",
            GrafanaFiles.HEALTH_DASHBOARD);
    /** Grafana's template variables, replaced by plausible values so promtool can parse the queries. */
    private static final Map<String, String> VARIABLES = Map.of("$__rate_interval", "1m", "$__range", "1h",
            "$node", ".*", "$device", ".*", "$port", ".*", "$replica", ".*", "$agent_job", "rdmamon-agent");

    @Test
    void theDashboardsExistWithUniqueUids() {
        Set<String> files = new HashSet<>();
        Set<String> uids = new HashSet<>();
        for (Path file : GrafanaFiles.list(DASHBOARDS, ".json")) {
            files.add(file.getFileName().toString());
            JsonNode dashboard = GrafanaFiles.json(file);
            assertTrue(uids.add(dashboard.path("uid").asText()), file + ": duplicate uid");
            assertFalse(dashboard.path("title").asText().isEmpty(), file + ": no title");
        }
        assertEquals(EXPECTED, files);
    }

    @Test
    void dashboardsAreImportableAsTheyAre() {
        for (Path file : GrafanaFiles.list(DASHBOARDS, ".json")) {
            JsonNode dashboard = GrafanaFiles.json(file);
            // an id would tie the file to one Grafana database; __inputs would break file provisioning
            assertTrue(dashboard.path("id").isNull() || dashboard.path("id").isMissingNode(), file + ": id must be null");
            assertTrue(dashboard.path("__inputs").isMissingNode(), file + ": uses __inputs instead of a datasource variable");
            assertTrue(dashboard.path("schemaVersion").asInt() >= 36, file + ": schemaVersion older than Grafana 9.x");
        }
    }

    @Test
    void everyDashboardHasADatasourceVariableAndNodeDevicePortTemplating() {
        for (Path file : GrafanaFiles.list(DASHBOARDS, ".json")) {
            JsonNode variables = GrafanaFiles.json(file).path("templating").path("list");
            JsonNode datasource = variable(variables, "datasource");
            assertEquals("datasource", datasource.path("type").asText(), file + ": datasource variable type");
            assertEquals("prometheus", datasource.path("query").asText(), file + ": datasource variable plugin");
            // rdmamon health is about the collector replicas and the agents' processes, not ports
            boolean health = file.getFileName().toString().equals(GrafanaFiles.HEALTH_DASHBOARD);
            for (String name : health ? List.of("replica") : List.of("node", "device", "port")) {
                JsonNode variable = variable(variables, name);
                assertEquals("query", variable.path("type").asText(), file + ": $" + name + " type");
                assertEquals(DATASOURCE_UID, variable.path("datasource").path("uid").asText(), file + ": $" + name + " datasource");
                assertTrue(variable.path("definition").asText().startsWith("label_values("), file + ": $" + name + " query");
            }
        }
    }

    private static JsonNode variable(JsonNode variables, String name) {
        for (JsonNode variable : variables) {
            if (variable.path("name").asText().equals(name)) {
                return variable;
            }
        }
        throw new AssertionError("no template variable $" + name);
    }

    @Test
    void everyPanelQueriesKnownMetricsThroughTheDatasourceVariableAndHasAUnit() {
        Set<String> recorded = GrafanaFiles.recordedNames();
        for (Path file : GrafanaFiles.list(DASHBOARDS, ".json")) {
            JsonNode dashboard = GrafanaFiles.json(file);
            List<JsonNode> panels = panels(dashboard);
            assertFalse(panels.isEmpty(), file + " has no panels");
            for (JsonNode panel : panels) {
                String where = file.getFileName() + " panel '" + panel.path("title").asText() + "'";
                assertEquals(DATASOURCE_UID, panel.path("datasource").path("uid").asText(), where + " datasource");
                assertFalse(panel.path("fieldConfig").path("defaults").path("unit").asText().isEmpty(), where + " has no unit");
                JsonNode targets = panel.path("targets");
                assertFalse(targets.isEmpty(), where + " has no targets");
                for (JsonNode target : targets) {
                    String expr = target.path("expr").asText();
                    assertFalse(expr.isBlank(), where + " has a target without expr");
                    assertEquals(DATASOURCE_UID, target.path("datasource").path("uid").asText(), where + " target datasource");
                    if (file.getFileName().toString().equals(GrafanaFiles.HEALTH_DASHBOARD)) {
                        Set<String> names = GrafanaFiles.selfMetricNames(expr);
                        assertFalse(names.isEmpty(), where + ": " + expr + " reads no rdmamon metric");
                        names.forEach(n -> assertTrue(GrafanaFiles.knownSelfMetric(n), where + " reads unknown metric " + n));
                        continue;
                    }
                    Set<String> names = GrafanaFiles.metricNames(expr);
                    assertFalse(names.isEmpty(), where + ": " + expr + " reads no rdma metric");
                    names.forEach(n -> assertTrue(GrafanaFiles.knownMetric(n, recorded), where + " reads unknown metric " + n));
                }
            }
            for (JsonNode variable : dashboard.path("templating").path("list")) {
                GrafanaFiles.metricNames(variable.path("definition").asText()).forEach(n -> assertTrue(
                        GrafanaFiles.knownMetric(n, recorded), file + " variable reads unknown metric " + n));
            }
        }
    }

    /** Panels with queries, including those nested in collapsed rows; rows themselves query nothing. */
    private static List<JsonNode> panels(JsonNode dashboard) {
        List<JsonNode> panels = new ArrayList<>();
        for (JsonNode panel : dashboard.path("panels")) {
            if (panel.path("type").asText().equals("row")) {
                panel.path("panels").forEach(panels::add);
            } else {
                panels.add(panel);
            }
        }
        return panels;
    }

    /** promtool has no bare query parser, so every dashboard query becomes a recording rule it checks. */
    @Test
    void everyDashboardQueryIsValidPromQL(@TempDir Path dir) throws IOException, InterruptedException {
        assumeTrue(Promtool.available(), "promtool is not installed at " + Promtool.EXECUTABLE + " (Debian package prometheus)");
        StringBuilder rules = new StringBuilder("groups:\n  - name: dashboard-queries\n    rules:\n");
        int count = 0;
        for (Path file : GrafanaFiles.list(DASHBOARDS, ".json")) {
            for (JsonNode panel : panels(GrafanaFiles.json(file))) {
                for (JsonNode target : panel.path("targets")) {
                    String expr = target.path("expr").asText();
                    for (Map.Entry<String, String> v : VARIABLES.entrySet()) {
                        expr = expr.replace(v.getKey(), v.getValue());
                    }
                    assertFalse(expr.contains("$"), file + ": unresolved variable in " + expr);
                    count++;
                    rules.append("      - record: dashboard_query_").append(count).append('\n')
                            .append("        expr: '").append(expr.replace("'", "''")).append("'\n");
                }
            }
        }
        Path rulesFile = dir.resolve("dashboard-queries.yml");
        Files.writeString(rulesFile, rules);
        Promtool.Result result = Promtool.run(dir, List.of("check", "rules", "--lint=none", rulesFile.toString()));
        assertEquals(0, result.exitCode(), result.output());
        assertTrue(result.output().contains("SUCCESS: " + count + " rules found"), result.output());
    }

    @Test
    void dashboardsCarryTheSharedTag() {
        for (Path file : GrafanaFiles.list(DASHBOARDS, ".json")) {
            JsonNode tags = GrafanaFiles.json(file).path("tags");
            boolean tagged = false;
            for (JsonNode tag : tags) {
                tagged |= tag.asText().equals("rdmamon");
            }
            assertTrue(tagged, file + " lacks the rdmamon tag its dashboard links rely on");
        }
    }
}
