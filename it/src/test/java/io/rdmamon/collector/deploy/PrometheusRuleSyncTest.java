package io.rdmamon.collector.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * grafana/rules/*.yml is the one source of the alerting and recording rules; the PrometheusRule in
 * deploy/kubernetes/base is generated from it by deploy/scripts/gen-prometheusrule.sh and must carry the
 * very same groups.
 */
class PrometheusRuleSyncTest {
    private static final Path PROMETHEUS_RULE = DeployTree.BASE.resolve("prometheusrule.yaml");

    @Test
    void the_prometheusrule_holds_exactly_the_groups_of_the_grafana_rule_files() throws IOException {
        ArrayNode expected = groupsOf(ruleFiles(DeployTree.GRAFANA_RULES));

        JsonNode actual = DeployTree.readDocument(PROMETHEUS_RULE).at("/spec/groups");

        assertEquals(expected, actual, "re-run deploy/scripts/gen-prometheusrule.sh: "
                + KubernetesSchema.firstDifference(expected, actual, "/spec/groups"));
    }

    @Test
    void the_committed_prometheusrule_is_the_generator_output() throws Exception {
        Generated generated = generate(DeployTree.RULE_GENERATOR);

        assertEquals(0, generated.exitCode(), generated.stderr());
        assertEquals(Files.readString(PROMETHEUS_RULE), generated.stdout(),
                "deploy/kubernetes/base/prometheusrule.yaml is stale: re-run deploy/scripts/gen-prometheusrule.sh");
    }

    @Test
    void the_runbook_base_url_option_moves_every_alert_link_and_nothing_else() throws Exception {
        Generated committed = generate(DeployTree.RULE_GENERATOR);
        Generated moved = generate(DeployTree.RULE_GENERATOR, "--runbook-base-url", "https://rdmamon.example.com/");

        assertEquals(0, moved.exitCode(), moved.stderr());
        String expected = committed.stdout().replace("runbook_url: http://rdmamon-collector.rdmamon.svc:9470/runbooks/",
                "runbook_url: https://rdmamon.example.com/runbooks/");
        assertTrue(expected.contains("runbook_url: https://rdmamon.example.com/runbooks/link_down\n"), expected);
        assertEquals(expected, moved.stdout());
    }

    @Test
    void the_runbook_base_url_option_refuses_a_url_that_would_break_the_yaml() throws Exception {
        Generated refused = generate(DeployTree.RULE_GENERATOR, "--runbook-base-url", "https://x/{{ $externalURL }}");

        assertEquals(2, refused.exitCode());
        assertTrue(refused.stderr().contains("--runbook-base-url 'https://x/{{ $externalURL }}' is not an http(s) URL"),
                refused.stderr());
        assertEquals("", refused.stdout());
    }

    @Test
    void the_generator_carries_any_indentation_block_scalars_and_comments_over_intact(@TempDir Path repo) throws Exception {
        Path rules = Files.createDirectories(repo.resolve("grafana/rules"));
        Files.writeString(rules.resolve("a-recording.yml"), """
                # recording rules
                groups:
                - name: rdmamon-recording
                  interval: 30s
                  rules:
                    - record: rdma:port_received_bytes:rate1m
                      expr: |
                        sum by (node, device, port) (
                          rate(rdma_port_data_received_bytes_total[1m])
                        )

                # a comment left of the list
                    - record: rdma:x
                      expr: "a: b"
                """);
        Files.writeString(rules.resolve("b-alerts.yml"), """
                groups:
                    - name: rdmamon-alerts
                      rules:
                        - alert: RdmaPfcPauseStorm
                          expr: rate(rdma_pfc_pause_frames_total[1m]) > 1000
                          for: 2m
                          labels: {severity: critical}
                          annotations:
                            summary: >-
                              PFC storm on {{ $labels.node }}
                """);
        Files.writeString(rules.resolve("ignored.yaml"), "groups: [{name: not-a-yml-file, rules: []}]\n");

        Generated generated = generate(copyGenerator(repo));

        assertEquals(0, generated.exitCode(), generated.stderr());
        Path output = Files.writeString(repo.resolve("out.yaml"), generated.stdout());
        assertEquals(groupsOf(List.of(rules.resolve("a-recording.yml"), rules.resolve("b-alerts.yml"))),
                DeployTree.readDocument(output).at("/spec/groups"));
        assertEquals(List.of(), KubernetesSchema.problems(DeployTree.readDocument(output)));
    }

    @Test
    void the_generator_refuses_a_rule_file_with_more_than_groups(@TempDir Path repo) throws Exception {
        Path rules = Files.createDirectories(repo.resolve("grafana/rules"));
        Files.writeString(rules.resolve("bad.yml"), "groups:\n  - name: g\n    rules: []\nnamespace: x\n");

        Generated generated = generate(copyGenerator(repo));

        assertEquals(1, generated.exitCode());
        assertTrue(generated.stderr().contains("grafana/rules/bad.yml:4: unexpected top-level line \"namespace: x\""),
                generated.stderr());
    }

    /** The `groups` lists of the rule files, concatenated in file order. */
    private static ArrayNode groupsOf(List<Path> files) {
        ArrayNode groups = DeployTree.YAML.createArrayNode();
        for (Path file : files) {
            JsonNode document = DeployTree.readDocument(file);
            assertEquals(List.of("groups"), iterate(document.fieldNames()), file + ": a rule file holds only groups");
            groups.addAll((ArrayNode) document.get("groups"));
        }
        return groups;
    }

    private static List<Path> ruleFiles(Path dir) throws IOException {
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> files = Files.list(dir)) {
            // byte order of the names, as the generator's LC_ALL=C glob
            return files.filter(f -> f.getFileName().toString().endsWith(".yml")).sorted().toList();
        }
    }

    private static Path copyGenerator(Path repo) throws IOException {
        Path script = Files.createDirectories(repo.resolve("deploy/scripts")).resolve("gen-prometheusrule.sh");
        Files.createDirectories(repo.resolve("deploy/kubernetes/base"));
        Files.copy(DeployTree.RULE_GENERATOR, script);
        return script;
    }

    private record Generated(int exitCode, String stdout, String stderr) {
    }

    private static Generated generate(Path script, String... options) throws IOException, InterruptedException {
        List<String> command = new java.util.ArrayList<>(List.of("bash", script.toString(), "--stdout"));
        command.addAll(List.of(options));
        Process process = new ProcessBuilder(command).start();
        process.getOutputStream().close();
        byte[] stdout = process.getInputStream().readAllBytes();
        byte[] stderr = process.getErrorStream().readAllBytes();
        assertTrue(process.waitFor(30, TimeUnit.SECONDS), "generator timed out");
        return new Generated(process.exitValue(), new String(stdout, StandardCharsets.UTF_8), new String(stderr, StandardCharsets.UTF_8));
    }

    private static <T> List<T> iterate(java.util.Iterator<T> it) {
        List<T> list = new java.util.ArrayList<>();
        it.forEachRemaining(list::add);
        return list;
    }
}
