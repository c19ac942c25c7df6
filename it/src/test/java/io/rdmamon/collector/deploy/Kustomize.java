package io.rdmamon.collector.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Renders a kustomization the way {@code kubectl kustomize} does, for the subset deploy/kubernetes uses, so
 * that the overlay tests run on machines without kustomize: {@code resources} (files and kustomization
 * directories), {@code patches} with a {@code path} to a strategic-merge patch, {@code namespace} and
 * {@code images}. Any other key is refused by name, so that a manifest using more of kustomize fails here
 * instead of being rendered wrongly. {@link KustomizeTest} checks the result against kubectl where present.
 */
final class Kustomize {
    private static final Set<String> KNOWN_KEYS = Set.of("apiVersion", "kind", "resources", "patches", "namespace", "images");
    private static final Set<String> CLUSTER_SCOPED = Set.of("Namespace", "ClusterRole", "ClusterRoleBinding",
            "CustomResourceDefinition", "PriorityClass", "StorageClass", "PersistentVolume");
    /**
     * Strategic-merge keys of the lists this subset merges element by element (the patchMergeKey of the
     * Kubernetes API types); every other list in a patch replaces the target's list.
     */
    private static final Map<String, String> MERGE_KEYS = Map.of(
            "containers", "name",
            "initContainers", "name",
            "volumes", "name",
            "env", "name",
            "volumeMounts", "mountPath",
            "ports", "containerPort");

    private Kustomize() {
    }

    /** The resources of the kustomization in {@code dir}, patched and transformed. */
    static List<ObjectNode> render(Path dir) {
        Path file = dir.resolve("kustomization.yaml");
        ObjectNode kustomization = DeployTree.readDocument(file);
        for (Iterator<String> keys = kustomization.fieldNames(); keys.hasNext(); ) {
            String key = keys.next();
            if (!KNOWN_KEYS.contains(key)) {
                throw new IllegalArgumentException(file + ": kustomize key '" + key + "' is outside the subset this renderer"
                        + " implements " + KNOWN_KEYS);
            }
        }
        List<ObjectNode> resources = new ArrayList<>();
        for (JsonNode entry : kustomization.path("resources")) {
            Path resource = dir.resolve(entry.asText()).normalize();
            if (Files.isDirectory(resource)) {
                resources.addAll(render(resource));
            } else {
                resources.addAll(DeployTree.readDocuments(resource));
            }
        }
        for (JsonNode patch : kustomization.path("patches")) {
            if (!patch.has("path") || patch.size() != 1) {
                throw new IllegalArgumentException(file + ": only patches: [{path: FILE}] is supported, got " + patch);
            }
            Path patchFile = dir.resolve(patch.get("path").asText());
            for (ObjectNode document : DeployTree.readDocuments(patchFile)) {
                ObjectNode target = resources.stream().filter(r -> sameResource(r, document)).findFirst()
                        .orElseThrow(() -> new IllegalArgumentException(patchFile + ": no resource "
                                + DeployTree.identity(document) + " to patch"));
                mergePatch(target, document);
            }
        }
        if (kustomization.has("namespace")) {
            String namespace = kustomization.get("namespace").asText();
            resources.stream().filter(r -> !CLUSTER_SCOPED.contains(r.path("kind").asText()))
                    .forEach(r -> ((ObjectNode) r.get("metadata")).put("namespace", namespace));
        }
        for (JsonNode image : kustomization.path("images")) {
            resources.forEach(r -> retag(r, image));
        }
        return resources;
    }

    private static boolean sameResource(JsonNode resource, JsonNode patch) {
        return resource.path("kind").equals(patch.path("kind"))
                && group(resource).equals(group(patch))
                && resource.path("metadata").path("name").equals(patch.path("metadata").path("name"));
    }

    private static String group(JsonNode resource) {
        String apiVersion = resource.path("apiVersion").asText();
        int slash = apiVersion.indexOf('/');
        return slash < 0 ? "" : apiVersion.substring(0, slash);
    }

    /** Strategic merge of {@code patch} into {@code target}: maps merge, keyed lists merge by key, other values replace. */
    static void mergePatch(ObjectNode target, ObjectNode patch) {
        for (Iterator<Map.Entry<String, JsonNode>> fields = patch.fields(); fields.hasNext(); ) {
            Map.Entry<String, JsonNode> field = fields.next();
            String name = field.getKey();
            JsonNode value = field.getValue();
            JsonNode existing = target.get(name);
            if (name.startsWith("$")) {
                throw new IllegalArgumentException("patch directive " + name + " is outside the supported subset");
            } else if (value.isNull()) {
                target.remove(name);
            } else if (value.isObject() && existing != null && existing.isObject()) {
                mergePatch((ObjectNode) existing, (ObjectNode) value);
            } else if (value.isArray() && existing != null && existing.isArray() && MERGE_KEYS.containsKey(name)) {
                mergeList((ArrayNode) existing, (ArrayNode) value, MERGE_KEYS.get(name));
            } else {
                target.set(name, value.deepCopy());
            }
        }
    }

    private static void mergeList(ArrayNode target, ArrayNode patch, String key) {
        for (JsonNode element : patch) {
            JsonNode id = element.get(key);
            if (id == null) {
                throw new IllegalArgumentException("list element without its merge key '" + key + "': " + element);
            }
            ObjectNode match = null;
            for (JsonNode candidate : target) {
                if (id.equals(candidate.get(key))) {
                    match = (ObjectNode) candidate;
                }
            }
            if (match != null) {
                mergePatch(match, (ObjectNode) element);
            } else {
                target.add(element.deepCopy());
            }
        }
    }

    /** The images transformer: every container image named {@code name} gets newName, newTag or digest. */
    private static void retag(JsonNode node, JsonNode image) {
        if (node.isObject()) {
            for (String listName : List.of("containers", "initContainers")) {
                for (JsonNode container : node.path(listName)) {
                    String current = container.path("image").asText();
                    if (imageName(current).equals(image.path("name").asText())) {
                        ((ObjectNode) container).put("image", rewrite(current, image));
                    }
                }
            }
        }
        node.forEach(child -> retag(child, image));
    }

    private static String rewrite(String current, JsonNode image) {
        String name = image.has("newName") ? image.get("newName").asText() : imageName(current);
        if (image.has("digest")) {
            return name + "@" + image.get("digest").asText();
        }
        if (image.has("newTag")) {
            return name + ":" + image.get("newTag").asText();
        }
        return name + current.substring(imageName(current).length());
    }

    /** The image reference without tag or digest ({@code host:port/repo:tag} keeps its port). */
    static String imageName(String reference) {
        int at = reference.indexOf('@');
        String withoutDigest = at < 0 ? reference : reference.substring(0, at);
        int colon = withoutDigest.lastIndexOf(':');
        return colon > withoutDigest.lastIndexOf('/') ? withoutDigest.substring(0, colon) : withoutDigest;
    }
}
