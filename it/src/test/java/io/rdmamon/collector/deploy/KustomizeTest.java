package io.rdmamon.collector.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** The test-side kustomize renderer: its strategic merge, and its output against the real kustomize where installed. */
class KustomizeTest {

    @Test
    void keyed_lists_merge_by_key_and_plain_lists_are_replaced() throws IOException {
        ObjectNode target = (ObjectNode) DeployTree.YAML.readTree("""
                containers:
                  - name: a
                    image: x:1
                    volumeMounts: [{name: sys, mountPath: /sys, readOnly: true}]
                    securityContext: {capabilities: {drop: [ALL]}, privileged: false}
                  - name: b
                    image: y:1
                tolerations: [{key: t1}]
                """);
        ObjectNode patch = (ObjectNode) DeployTree.YAML.readTree("""
                containers:
                  - name: a
                    volumeMounts: [{name: ib, mountPath: /dev/infiniband}]
                    securityContext: {capabilities: {add: [IPC_LOCK]}, privileged: true}
                tolerations: [{key: t2}]
                """);

        Kustomize.mergePatch(target, patch);

        assertEquals(DeployTree.YAML.readTree("""
                containers:
                  - name: a
                    image: x:1
                    volumeMounts: [{name: sys, mountPath: /sys, readOnly: true}, {name: ib, mountPath: /dev/infiniband}]
                    securityContext: {capabilities: {drop: [ALL], add: [IPC_LOCK]}, privileged: true}
                  - name: b
                    image: y:1
                tolerations: [{key: t2}]
                """), target);
    }

    @ParameterizedTest
    @CsvSource({
            "rdmamon:0.1.0, rdmamon",
            "registry.example.com:5000/rdmamon/rdmamon:0.1.0, registry.example.com:5000/rdmamon/rdmamon",
            "registry.example.com:5000/rdmamon, registry.example.com:5000/rdmamon",
            "rdmamon@sha256:0123, rdmamon"})
    void image_names_lose_tag_and_digest_but_keep_a_registry_port(String reference, String name) {
        assertEquals(name, Kustomize.imageName(reference));
    }

    @Test
    void a_kustomize_feature_outside_the_subset_is_refused_by_name(@org.junit.jupiter.api.io.TempDir Path dir) throws IOException {
        Files.writeString(dir.resolve("kustomization.yaml"), "resources: []\ncommonLabels: {team: x}\n");

        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Kustomize.render(dir));

        assertTrue(e.getMessage().contains("kustomize key 'commonLabels'"), e.getMessage());
    }

    @Test
    void a_patch_without_a_target_is_refused(@org.junit.jupiter.api.io.TempDir Path dir) throws IOException {
        Files.writeString(dir.resolve("kustomization.yaml"), "resources: []\npatches: [{path: p.yaml}]\n");
        Files.writeString(dir.resolve("p.yaml"), "apiVersion: apps/v1\nkind: DaemonSet\nmetadata: {name: nope}\n");

        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Kustomize.render(dir));

        assertTrue(e.getMessage().contains("no resource DaemonSet/nope to patch"), e.getMessage());
    }

    /** Where kubectl (with its built-in kustomize) is installed, both renderers must give the same resources. */
    @TestFactory
    Stream<DynamicTest> renders_every_overlay_as_kubectl_kustomize_does() {
        assumeTrue(onPath("kubectl"), "kubectl is not installed: the renderer is checked by the tests above only");
        return DeployTree.overlays().stream().map(overlay -> DynamicTest.dynamicTest(overlay.getFileName().toString(), () -> {
            Map<String, JsonNode> expected = byIdentity(kubectlKustomize(overlay));
            Map<String, JsonNode> actual = byIdentity(Kustomize.render(overlay));
            assertEquals(expected.keySet(), actual.keySet());
            expected.forEach((id, resource) -> assertEquals(resource, actual.get(id),
                    id + ": " + KubernetesSchema.firstDifference(resource, actual.get(id), "")));
        }));
    }

    private static List<ObjectNode> kubectlKustomize(Path overlay) throws IOException, InterruptedException {
        Path output = Files.createTempFile("kustomize", ".yaml");
        try {
            Process process = new ProcessBuilder("kubectl", "kustomize", overlay.toString())
                    .redirectOutput(output.toFile()).redirectErrorStream(false).start();
            String stderr = new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(process.waitFor(60, TimeUnit.SECONDS), "kubectl kustomize " + overlay + " timed out");
            assertEquals(0, process.exitValue(), "kubectl kustomize " + overlay + ": " + stderr);
            return DeployTree.readDocuments(output);
        } finally {
            Files.deleteIfExists(output);
        }
    }

    /**
     * Resources by identity, with keyed lists sorted by name: kustomize puts list elements added by a patch
     * first, this renderer last, and the order of volumes or mounts carries no meaning.
     */
    private static Map<String, JsonNode> byIdentity(List<ObjectNode> resources) {
        Map<String, JsonNode> result = new TreeMap<>();
        resources.forEach(r -> result.put(DeployTree.identity(r), sortNamedLists(r.deepCopy())));
        return result;
    }

    private static JsonNode sortNamedLists(JsonNode node) {
        node.forEach(KustomizeTest::sortNamedLists);
        if (node.isArray() && node.size() > 1 && allNamed(node)) {
            List<JsonNode> elements = new ArrayList<>();
            node.forEach(elements::add);
            elements.sort(Comparator.comparing(e -> e.get("name").asText()));
            ((ArrayNode) node).removeAll().addAll(elements);
        }
        return node;
    }

    private static boolean allNamed(JsonNode array) {
        for (JsonNode element : array) {
            if (!element.isObject() || !element.has("name")) {
                return false;
            }
        }
        return true;
    }

    static boolean onPath(String program) {
        return Stream.of(System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator))
                .anyMatch(dir -> !dir.isEmpty() && Files.isExecutable(Path.of(dir, program)));
    }
}
