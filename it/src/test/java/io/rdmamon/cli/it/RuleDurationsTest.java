package io.rdmamon.cli.it;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RuleDurationsTest {
    private static final Path RULES = Path.of("..", "grafana", "rules");
    /** Any duration token; "rate2m" in a rule name is no token (no word boundary before the 2). */
    private static final String ANY_DURATION = "\\b[0-9]+(ms|[smhdwy])\\b";

    @ParameterizedTest(name = "{0} / {1} = {2}")
    @CsvSource({
            "10m, 10, 60s", "5m, 10, 30s", "2m, 10, 12s", "1m, 10, 6s", "15m, 10, 90s",
            "1h30m, 10, 540s", "95s, 10, 10s", // rounded up to whole seconds
            "30s, 10, 5s", "10s, 10, 5s",      // never below the 5 s minimum ...
            "3s, 10, 3s", "0s, 10, 0s",        // ... unless the original was shorter
            "2m, 1, 120s", "1w, 7, 86400s", "1500ms, 1, 2s"})
    void divideRoundUpAndKeepAMinimum(String original, int factor, String expected) {
        assertEquals(RuleDurations.parse(expected), RuleDurations.scaled(RuleDurations.parse(original), factor));
    }

    @Test
    void scalesForAndRangeSelectorsOnly() {
        String rule = """
                  - alert: X
                    expr: sum by (node) (rate(rdma_a_total[2m])) > 1 and increase(rdma_b_total[15m]) > 0 and rdma:a:rate2m > 5
                    for: 10m
                    labels:
                      window: 10m
                      severity: warning
                    annotations:
                      summary: "over the last [2 minutes] or 10m"
                """;
        String expected = """
                  - alert: X
                    expr: sum by (node) (rate(rdma_a_total[12s])) > 1 and increase(rdma_b_total[90s]) > 0 and rdma:a:rate2m > 5
                    for: 60s
                    labels:
                      window: 10m
                      severity: warning
                    annotations:
                      summary: "over the last [2 minutes] or 10m"
                """;
        assertEquals(expected, RuleDurations.scale(rule, 10));
    }

    /** On the repository's rule files: masking every duration, the scaled copy equals the original. */
    @Test
    void theRepositoryRulesChangeOnlyInTheirDurations() throws IOException {
        List<Path> files;
        try (Stream<Path> list = Files.list(RULES)) {
            files = list.filter(f -> f.toString().endsWith(".yml")).sorted().toList();
        }
        assertEquals(3, files.size(), "recording, alerting and self-alerting rules in " + RULES);
        for (Path file : files) {
            String original = Files.readString(file);
            String scaled = RuleDurations.scale(original, 10);
            assertEquals(original.replaceAll(ANY_DURATION, "D"), scaled.replaceAll(ANY_DURATION, "D"), file.toString());
            assertFalse(scaled.contains("[2m]") || scaled.contains("for: 10m"), file + " still has unscaled durations");
            assertEquals(original.lines().count(), scaled.lines().count());
        }
        String alerts = RuleDurations.scale(Files.readString(RULES.resolve("rdmamon-alerts.yml")), 10);
        assertTrue(alerts.contains("increase(rdma_port_link_downed_total[90s])"), "the 15m flapping window becomes 90s");
        assertTrue(alerts.contains("for: 60s"), "for: 10m becomes 60s");
    }

    @Test
    void badInputIsNamed() {
        IllegalArgumentException notADuration = assertThrows(IllegalArgumentException.class,
                () -> RuleDurations.scale("    for: five minutes\n", 10));
        assertTrue(notADuration.getMessage().contains("'five minutes'"), notADuration.getMessage());
        assertThrows(IllegalArgumentException.class, () -> RuleDurations.scale("for: 1m\n", 0));
        assertEquals(Duration.ofMinutes(90), RuleDurations.parse("1h30m"));
    }
}
