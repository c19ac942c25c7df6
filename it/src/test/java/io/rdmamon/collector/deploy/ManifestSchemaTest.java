package io.rdmamon.collector.deploy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Every manifest under deploy/kubernetes parses, and every resource, as committed and as rendered, fits its API type. */
class ManifestSchemaTest {

    @TestFactory
    Stream<DynamicTest> every_base_resource_matches_its_api_type() throws IOException {
        List<String> kustomized = Kustomize.render(DeployTree.BASE).stream().map(DeployTree::identity).toList();
        try (Stream<Path> files = Files.list(DeployTree.BASE)) {
            List<Path> resources = files.filter(f -> f.toString().endsWith(".yaml"))
                    .filter(f -> !f.getFileName().toString().equals("kustomization.yaml")).sorted().toList();
            assertEquals(kustomized.size(), resources.stream().mapToInt(f -> DeployTree.readDocuments(f).size()).sum(),
                    "every YAML file in base/ is listed in its kustomization, and nothing else is");
            return resources.stream().map(file -> DynamicTest.dynamicTest(file.getFileName().toString(), () -> {
                List<ObjectNode> documents = DeployTree.readDocuments(file);
                assertFalse(documents.isEmpty(), file + " holds no document");
                List<String> problems = new ArrayList<>();
                documents.forEach(d -> problems.addAll(KubernetesSchema.problems(d)));
                assertEquals(List.of(), problems, file.toString());
            }));
        }
    }

    @TestFactory
    Stream<DynamicTest> every_rendered_overlay_matches_the_api_types() {
        return DeployTree.overlays().stream().map(overlay -> DynamicTest.dynamicTest(overlay.getFileName().toString(), () -> {
            List<String> problems = new ArrayList<>();
            Kustomize.render(overlay).forEach(r -> problems.addAll(KubernetesSchema.problems(r)));
            assertEquals(List.of(), problems, overlay.toString());
        }));
    }

    @Test
    void a_misspelt_field_is_reported_with_its_path() {
        ObjectNode deployment = DeployTree.readDocument(DeployTree.BASE.resolve("collector-deployment.yaml"));
        ObjectNode securityContext = (ObjectNode) deployment.at("/spec/template/spec/containers/0/securityContext");
        securityContext.set("readOnlyRootFileSystem", securityContext.remove("readOnlyRootFilesystem"));

        List<String> problems = KubernetesSchema.problems(deployment);

        assertEquals(1, problems.size(), problems.toString());
        assertTrue(problems.get(0).contains("containers[0].securityContext: unknown field(s) [readOnlyRootFileSystem]"),
                problems.get(0));
    }

    @Test
    void a_value_of_the_wrong_type_is_reported() {
        ObjectNode daemonSet = DeployTree.readDocument(DeployTree.BASE.resolve("agent-daemonset.yaml"));
        ((ObjectNode) daemonSet.at("/spec/template/spec")).put("hostNetwork", "true");

        List<String> problems = KubernetesSchema.problems(daemonSet);

        assertEquals(1, problems.size(), problems.toString());
        assertTrue(problems.get(0).contains("/spec/template/spec/hostNetwork"), problems.get(0));
    }

    @Test
    void a_kind_without_a_schema_is_refused() {
        ObjectNode ingress = DeployTree.YAML.createObjectNode().put("apiVersion", "networking.k8s.io/v1").put("kind", "Ingress");
        ingress.putObject("metadata").put("name", "x");

        assertEquals(List.of("Ingress/x: no schema for networking.k8s.io/v1/Ingress"), KubernetesSchema.problems(ingress));
    }
}
