package io.rdmamon.collector.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Paths of the repository's deploy/ and grafana/ trees as seen from the it module (Surefire runs
 * with the module directory as working directory), and YAML reading shared by the deploy tests.
 */
final class DeployTree {
    static final Path REPO = Path.of("..").toAbsolutePath().normalize();
    static final Path DEPLOY = REPO.resolve("deploy");
    static final Path KUBERNETES = DEPLOY.resolve("kubernetes");
    static final Path BASE = KUBERNETES.resolve("base");
    static final Path OVERLAYS = KUBERNETES.resolve("overlays");
    static final Path SYSTEMD = DEPLOY.resolve("systemd");
    static final Path CONTAINERFILE = DEPLOY.resolve("container/Containerfile");
    static final Path RULE_GENERATOR = DEPLOY.resolve("scripts/gen-prometheusrule.sh");
    static final Path GRAFANA_RULES = REPO.resolve("grafana/rules");

    static final YAMLMapper YAML = new YAMLMapper();

    private DeployTree() {
    }

    /** The overlay directories (each holds a kustomization.yaml), sorted by name. */
    static List<Path> overlays() {
        try (Stream<Path> dirs = Files.list(OVERLAYS)) {
            return dirs.filter(d -> Files.isRegularFile(d.resolve("kustomization.yaml"))).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Every document of a YAML stream, skipping empty ones; each must be a mapping. */
    static List<ObjectNode> readDocuments(Path file) {
        List<ObjectNode> documents = new ArrayList<>();
        try (MappingIterator<JsonNode> it = YAML.readerFor(JsonNode.class).readValues(file.toFile())) {
            while (it.hasNextValue()) {
                JsonNode document = it.nextValue();
                if (document == null || document.isNull() || document.isMissingNode()) {
                    continue;
                }
                if (!document.isObject()) {
                    throw new IllegalArgumentException(file + ": document " + (documents.size() + 1) + " is not a mapping");
                }
                documents.add((ObjectNode) document);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(file + ": " + e.getMessage(), e);
        }
        return documents;
    }

    /** The single document of a YAML file. */
    static ObjectNode readDocument(Path file) {
        List<ObjectNode> documents = readDocuments(file);
        if (documents.size() != 1) {
            throw new IllegalArgumentException(file + ": expected one YAML document, found " + documents.size());
        }
        return documents.get(0);
    }

    /** {@code kind/namespace/name}, the identity kustomize uses to match patches and Prometheus uses in errors. */
    static String identity(JsonNode resource) {
        JsonNode metadata = resource.path("metadata");
        String namespace = metadata.path("namespace").asText("");
        return resource.path("kind").asText() + "/" + (namespace.isEmpty() ? "" : namespace + "/")
                + metadata.path("name").asText();
    }
}
