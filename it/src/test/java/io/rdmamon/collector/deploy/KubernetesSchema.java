package io.rdmamon.collector.deploy;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.LongNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.apps.DaemonSet;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.openshift.api.model.monitoring.v1.PrometheusRule;
import io.fabric8.openshift.api.model.monitoring.v1.ServiceMonitor;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Checks a manifest against the Kubernetes API types (fabric8's generated model of the OpenAPI schema, and
 * of the Prometheus Operator's CRDs): the document must map onto the typed class for its apiVersion and
 * kind, every field must be one the type knows (fabric8 keeps unknown fields in additionalProperties, so
 * those are walked and reported), and writing the typed object back must give the same tree, which catches
 * values of the wrong type that Jackson would otherwise coerce (a quoted number, a scalar for a list).
 */
final class KubernetesSchema {
    private static final Map<String, Class<?>> TYPES = Map.ofEntries(
            Map.entry("v1/Namespace", Namespace.class),
            Map.entry("v1/ServiceAccount", ServiceAccount.class),
            Map.entry("v1/Secret", Secret.class),
            Map.entry("v1/ConfigMap", ConfigMap.class),
            Map.entry("v1/Service", Service.class),
            Map.entry("apps/v1/Deployment", Deployment.class),
            Map.entry("apps/v1/DaemonSet", DaemonSet.class),
            Map.entry("networking.k8s.io/v1/NetworkPolicy", NetworkPolicy.class),
            Map.entry("policy/v1/PodDisruptionBudget", io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget.class),
            Map.entry("monitoring.coreos.com/v1/ServiceMonitor", ServiceMonitor.class),
            Map.entry("monitoring.coreos.com/v1/PrometheusRule", PrometheusRule.class));

    private static final ObjectMapper MAPPER = JsonMapper.builder()
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .disable(DeserializationFeature.ACCEPT_SINGLE_VALUE_AS_ARRAY)
            .build();

    private KubernetesSchema() {
    }

    /** The problems found in {@code manifest}, each naming the resource and the field path; empty when valid. */
    static List<String> problems(JsonNode manifest) {
        String where = DeployTree.identity(manifest);
        String typeKey = manifest.path("apiVersion").asText() + "/" + manifest.path("kind").asText();
        Class<?> type = TYPES.get(typeKey);
        if (type == null) {
            return List.of(where + ": no schema for " + typeKey);
        }
        Object typed;
        try {
            typed = MAPPER.treeToValue(manifest, type);
        } catch (Exception e) {
            return List.of(where + ": does not match " + type.getSimpleName() + ": " + e.getMessage().lines().findFirst().orElse(""));
        }
        List<String> problems = new ArrayList<>();
        collectUnknownFields(typed, where, problems);
        JsonNode read = canonical(manifest);
        JsonNode written = canonical(MAPPER.valueToTree(typed));
        if (problems.isEmpty() && !written.equals(read)) {
            problems.add(where + ": does not survive a round trip through " + type.getSimpleName()
                    + " (a value of the wrong type?): " + firstDifference(read, written, ""));
        }
        return problems;
    }

    private static void collectUnknownFields(Object value, String path, List<String> problems) {
        if (value instanceof List<?> list) {
            for (int i = 0; i < list.size(); i++) {
                collectUnknownFields(list.get(i), path + "[" + i + "]", problems);
            }
            return;
        }
        if (value instanceof Map<?, ?> map) {
            map.forEach((k, v) -> collectUnknownFields(v, path + "." + k, problems));
            return;
        }
        if (value == null || !value.getClass().getName().startsWith("io.fabric8.")) {
            return;
        }
        for (Method getter : value.getClass().getMethods()) {
            if (getter.getParameterCount() != 0 || Modifier.isStatic(getter.getModifiers())
                    || !getter.getName().startsWith("get") || getter.getDeclaringClass() == Object.class) {
                continue;
            }
            Object child;
            try {
                child = getter.invoke(value);
            } catch (IllegalAccessException | InvocationTargetException e) {
                continue;
            }
            if (getter.getName().equals("getAdditionalProperties")) {
                if (child instanceof Map<?, ?> unknown && !unknown.isEmpty()) {
                    problems.add(path + ": unknown field(s) " + unknown.keySet());
                }
            } else {
                String property = Character.toLowerCase(getter.getName().charAt(3)) + getter.getName().substring(4);
                collectUnknownFields(child, path + "." + property, problems);
            }
        }
    }

    /**
     * The tree as the API server would compare it: fabric8 omits empty lists and maps when writing, and
     * reads every integer into the Java type of its field, so empties are dropped and integers widened.
     */
    private static JsonNode canonical(JsonNode node) {
        if (node.isObject()) {
            ObjectNode copy = JsonNodeFactory.instance.objectNode();
            node.fields().forEachRemaining(field -> {
                JsonNode value = canonical(field.getValue());
                if (!(value.isContainerNode() && value.isEmpty())) {
                    copy.set(field.getKey(), value);
                }
            });
            return copy;
        }
        if (node.isArray()) {
            ArrayNode copy = JsonNodeFactory.instance.arrayNode();
            node.forEach(element -> copy.add(canonical(element)));
            return copy;
        }
        if (node.isIntegralNumber()) {
            return LongNode.valueOf(node.longValue());
        }
        return node;
    }

    /** Where two trees first differ, as a JSON-pointer-like path with both values. */
    static String firstDifference(JsonNode expected, JsonNode actual, String path) {
        if (expected.isObject() && actual.isObject()) {
            for (var it = expected.fieldNames(); it.hasNext(); ) {
                String name = it.next();
                if (!actual.has(name)) {
                    return path + "/" + name + " missing";
                }
                if (!expected.get(name).equals(actual.get(name))) {
                    return firstDifference(expected.get(name), actual.get(name), path + "/" + name);
                }
            }
            for (var it = actual.fieldNames(); it.hasNext(); ) {
                String name = it.next();
                if (!expected.has(name)) {
                    return path + "/" + name + " unexpected: " + actual.get(name);
                }
            }
        }
        if (expected.isArray() && actual.isArray() && expected.size() == actual.size()) {
            for (int i = 0; i < expected.size(); i++) {
                if (!expected.get(i).equals(actual.get(i))) {
                    return firstDifference(expected.get(i), actual.get(i), path + "/" + i);
                }
            }
        }
        return path + ": " + expected + " vs " + actual;
    }
}
