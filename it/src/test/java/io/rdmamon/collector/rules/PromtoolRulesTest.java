package io.rdmamon.collector.rules;

import com.fasterxml.jackson.databind.JsonNode;
import io.rdmamon.protocol.exposition.MetricSelection;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import static io.rdmamon.collector.rules.GrafanaFiles.RULES;
import static io.rdmamon.collector.rules.GrafanaFiles.RULE_IDS;
import static io.rdmamon.collector.rules.GrafanaFiles.RUNBOOKS;
import static io.rdmamon.collector.rules.GrafanaFiles.RUNBOOK_BASE_URL;
import static io.rdmamon.collector.rules.GrafanaFiles.TESTS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The Prometheus rules of grafana/rules against promtool and against the project's contracts:
 * clean `promtool check rules`, passing `promtool test rules`, every alert proven to fire and to
 * stay silent, every alert labelled with its diagnosis rule id, severity and runbook.
 */
class PromtoolRulesTest {
    private static final Pattern SELF_METRIC = Pattern.compile("rdmamon_collector_[a-z_]+");


    private static void assumePromtool() {
        assumeTrue(Promtool.available(), "promtool is not installed at " + Promtool.EXECUTABLE
                + " (Debian package prometheus); scripts/test.sh installs it");
    }

    @Test
    void everyRuleFilePassesPromtoolCheckWithAllLints() throws IOException, InterruptedException {
        assumePromtool();
        for (Path file : GrafanaFiles.list(RULES, ".yml")) {
            Promtool.Result result = Promtool.run(GrafanaFiles.ROOT,
                    List.of("check", "rules", "--lint=all", "--lint-fatal", file.toString()));
            assertEquals(0, result.exitCode(), file + ":\n" + result.output());
            assertTrue(result.output().contains("SUCCESS"), file + ":\n" + result.output());
            assertFalse(result.output().toLowerCase().contains("warn"), file + " has warnings:\n" + result.output());
        }
    }

    @Test
    void promtoolUnitTestsPass() throws IOException, InterruptedException {
        assumePromtool();
        List<String> args = new ArrayList<>(List.of("test", "rules"));
        List<Path> testFiles = GrafanaFiles.list(TESTS, ".yml");
        testFiles.forEach(f -> args.add(f.toString()));
        Promtool.Result result = Promtool.run(GrafanaFiles.ROOT, args);
        assertEquals(0, result.exitCode(), result.output());
        assertEquals(testFiles.size(), result.output().split("SUCCESS", -1).length - 1,
                "one SUCCESS per test file expected:\n" + result.output());
    }

    /** A broken expectation must fail promtool: the unit tests are not vacuous. */
    @Test
    void promtoolRejectsAnExpectationThatDoesNotHold(@TempDir Path dir)
            throws IOException, InterruptedException {
        assumePromtool();
        String healthy = Files.readString(TESTS.resolve("healthy-fleet.yml"))
                .replace("../rules/", RULES.toString() + "/");
        // claim that the link of a healthy port is down
        String silent = "        alertname: RdmaLinkDown\n        exp_alerts: []\n";
        String claimed = "        alertname: RdmaLinkDown\n        exp_alerts:\n          - exp_labels: "
                + "{severity: critical, rule: link_down, node: gpu-a, device: mlx5_0, port: \"1\"}\n";
        String broken = healthy.replace(silent, claimed);
        assertFalse(broken.equals(healthy), "healthy-fleet.yml no longer has a silent RdmaLinkDown expectation");
        Path file = dir.resolve("broken.yml");
        Files.writeString(file, broken);
        Promtool.Result result = Promtool.run(dir, List.of("test", "rules", file.toString()));
        assertEquals(1, result.exitCode(), result.output());
        assertTrue(result.output().contains("alertname: RdmaLinkDown"), result.output());
    }

    @Test
    void everyAlertFiresInATestAndStaysSilentInAnother() {
        Set<String> fired = new HashSet<>();
        Set<String> silent = new HashSet<>();
        for (Path file : GrafanaFiles.list(TESTS, ".yml")) {
            JsonNode testFile = GrafanaFiles.yaml(file);
            assertRuleFilesReferenced(file, testFile);
            for (JsonNode test : testFile.path("tests")) {
                for (JsonNode check : test.path("alert_rule_test")) {
                    String alert = check.path("alertname").asText();
                    (check.path("exp_alerts").isEmpty() ? silent : fired).add(alert);
                }
            }
        }
        Set<String> alerts = GrafanaFiles.alerts().stream().map(a -> a.get("alert").asText())
                .collect(Collectors.toCollection(TreeSet::new));
        assertFalse(alerts.isEmpty());
        for (String alert : alerts) {
            assertTrue(fired.contains(alert), alert + " has no promtool test where it fires");
            assertTrue(silent.contains(alert), alert + " has no promtool test where it stays silent");
        }
        Set<String> unknown = new TreeSet<>(fired);
        unknown.addAll(silent);
        unknown.removeAll(alerts);
        assertTrue(unknown.isEmpty(), "tests name alerts that do not exist: " + unknown);
    }

    private static void assertRuleFilesReferenced(Path file, JsonNode testFile) {
        Set<String> referenced = new HashSet<>();
        testFile.path("rule_files").forEach(r -> referenced.add(file.getParent().resolve(r.asText()).normalize().toString()));
        for (Path rules : GrafanaFiles.list(RULES, ".yml")) {
            assertTrue(referenced.contains(rules.toString()), file + " does not load " + rules);
        }
    }

    @Test
    void everyAlertNamesItsRuleSeverityPortAndRunbook() {
        Set<String> coveredRules = new TreeSet<>();
        for (JsonNode alert : GrafanaFiles.diagnosisAlerts()) {
            String name = alert.get("alert").asText();
            String rule = alert.path("labels").path("rule").asText();
            assertTrue(RULE_IDS.contains(rule), name + ": rule label '" + rule + "' is not a diagnosis rule id");
            coveredRules.add(rule);
            String severity = alert.path("labels").path("severity").asText();
            assertTrue(Set.of("warning", "critical").contains(severity), name + ": severity '" + severity + "'");
            assertFalse(alert.path("for").asText().isEmpty(), name + " has no `for:` hysteresis");

            JsonNode annotations = alert.path("annotations");
            // agent_stale and node_name_conflict are about a whole node: their series carry no device or port
            List<String> labels = Set.of("agent_stale", "node_name_conflict").contains(rule) ? List.of("node")
                    : List.of("node", "device", "port");
            for (String field : List.of("summary", "description")) {
                String text = annotations.path(field).asText();
                for (String label : labels) {
                    assertTrue(text.contains("{{ $labels." + label + " }}"), name + " " + field + " does not name the " + label);
                }
            }
            assertEquals(RUNBOOK_BASE_URL + rule, annotations.path("runbook_url").asText(), name);
            assertTrue(Files.isRegularFile(RUNBOOKS.resolve(rule + ".md")), name + ": no runbook " + rule + ".md");
        }
        assertEquals(RULE_IDS, coveredRules, "diagnosis rules without an alert");
    }

    /**
     * The self alerts (docs/metrics.md "Self alerts"): told apart by {@code component="rdmamon"}, no diagnosis rule id,
     * the replica named for the grouping and inhibition of deploy/alertmanager, a runbook page in the repository each.
     */
    @Test
    void everySelfAlertNamesItsComponentReplicaAndRunbook() {
        List<JsonNode> selfAlerts = GrafanaFiles.selfAlerts();
        assertEquals(8, selfAlerts.size(), "the self alerts of issue 36");
        for (JsonNode alert : selfAlerts) {
            String name = alert.get("alert").asText();
            assertTrue(name.startsWith("Rdmamon"), name);
            assertTrue(alert.path("labels").path("rule").isMissingNode(), name + " carries a diagnosis rule label");
            assertTrue(Set.of("warning", "critical").contains(alert.path("labels").path("severity").asText()), name);
            assertFalse(alert.path("for").asText().isEmpty(), name + " has no `for:` hysteresis");
            assertTrue(alert.path("expr").asText().contains("\"replica\", \"$1\", \"instance\""),
                    name + " does not name the replica");
            assertTrue(alert.path("annotations").path("summary").asText().contains("{{ $labels.replica }}"), name);
            String runbook = alert.path("annotations").path("runbook").asText();
            assertTrue(runbook.startsWith("docs/runbooks/self/"), name + ": runbook " + runbook);
            assertTrue(Files.isRegularFile(GrafanaFiles.ROOT.resolve(runbook)), name + ": no page " + runbook);
            for (String metric : SELF_METRIC.matcher(alert.path("expr").asText()).results().map(r -> r.group())
                    .toList()) {
                assertTrue(MetricSelection.COLLECTOR_SELF.contains(metric.replaceFirst("_(sum|count|bucket)$", "")),
                        name + " reads " + metric + ", which the collector does not export");
            }
        }
    }

    @Test
    void everyRunbookPageBelongsToARule() {
        for (Path page : GrafanaFiles.list(RUNBOOKS, ".md")) {
            String name = page.getFileName().toString();
            if (!name.equals("README.md")) {
                assertTrue(RULE_IDS.contains(name.substring(0, name.length() - ".md".length())), page + " names no rule id");
            }
        }
    }

    @Test
    void rulesReadOnlyRdmamonMetrics() {
        Set<String> recorded = GrafanaFiles.recordedNames();
        for (JsonNode rule : GrafanaFiles.rules()) {
            if (GrafanaFiles.selfAlerts().contains(rule)) {
                continue; // rdmamon's own series: everySelfAlertNamesItsComponentReplicaAndRunbook
            }
            String id = rule.has("alert") ? rule.get("alert").asText() : rule.get("record").asText();
            Set<String> names = GrafanaFiles.metricNames(rule.path("expr").asText());
            assertFalse(names.isEmpty(), id + " reads no rdma metric");
            for (String metric : names) {
                assertTrue(GrafanaFiles.knownMetric(metric, recorded), id + " reads " + metric
                        + ", which is neither in docs/architecture.md#metric-names nor a recording rule");
            }
        }
    }
}
