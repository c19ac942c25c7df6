package io.rdmamon.collector.rules;

import com.fasterxml.jackson.databind.JsonNode;
import io.rdmamon.collector.model.Rule;
import io.rdmamon.collector.model.Severity;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.util.Arrays;
import java.util.Set;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The engine's rules are the contract's ids (docs/architecture.md "Rule ids"), with the alerts' severities and a
 * runbook page each. */
class DiagnosisRulesMatchAlertsTest {
    @Test
    void sameIdsSeveritiesAndRunbooksAsTheAlertRules() {
        assertEquals(GrafanaFiles.RULE_IDS, Arrays.stream(Rule.values()).map(Rule::id).collect(Collectors.toSet()));
        for (JsonNode alert : GrafanaFiles.diagnosisAlerts()) {
            Rule rule = Rule.fromId(alert.path("labels").path("rule").asText());
            // an escalating rule (link_flapping) has an alert per severity it takes
            assertTrue(rule.severities().contains(Severity.fromId(alert.path("labels").path("severity").asText())),
                    alert.get("alert").asText());
            // the alert's absolute link and the API's relative one name the same page the collector serves
            assertEquals(alert.path("annotations").path("runbook_url").asText(),
                    GrafanaFiles.RUNBOOK_BASE_URL.replaceFirst("/runbooks/$", "") + rule.runbookUrl());
        }
        for (Rule rule : Rule.values()) {
            assertTrue(Files.isRegularFile(GrafanaFiles.ROOT.resolve(rule.runbookPath())), rule.runbookPath());
            assertTrue(Set.of("critical", "warning").contains(rule.severity().id()));
        }
    }
}
