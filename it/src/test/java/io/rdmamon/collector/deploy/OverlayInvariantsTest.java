package io.rdmamon.collector.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.StreamSupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The security and operability rules of deploy/kubernetes, checked on every rendered overlay: what runs
 * where, with which privileges, resources, probes and wiring. The probe overlay is the only place where
 * the agent gets root, privileged, IPC_LOCK and /dev/infiniband.
 */
class OverlayInvariantsTest {
    private static final String PROBES = "probes";
    private static final int COLLECTOR_PORT = 9470;
    private static final int AGENT_PORT = 9471;

    static List<Path> overlays() {
        return DeployTree.overlays();
    }

    @Test
    void there_is_a_counters_only_overlay_and_a_probe_overlay() {
        assertEquals(List.of(HaOverlayTest.HA, "monitoring", PROBES),
                overlays().stream().map(p -> p.getFileName().toString()).toList());
    }

    @ParameterizedTest
    @MethodSource("overlays")
    void every_container_has_pinned_image_resources_probes_and_a_read_only_root(Path overlay) {
        for (Workload workload : workloads(overlay)) {
            for (JsonNode container : workload.podSpec().path("containers")) {
                String where = workload.name() + "/" + container.path("name").asText();
                String image = container.path("image").asText();
                assertTrue(image.contains("@sha256:") || image.length() > Kustomize.imageName(image).length(),
                        where + ": image " + image + " has no tag");
                assertFalse(image.endsWith(":latest"), where + ": image tag latest");
                for (String bound : List.of("requests", "limits")) {
                    for (String resource : List.of("cpu", "memory")) {
                        assertFalse(container.path("resources").path(bound).path(resource).asText().isEmpty(),
                                where + ": resources." + bound + "." + resource + " unset");
                    }
                }
                Set<String> portNames = new HashSet<>();
                container.path("ports").forEach(p -> portNames.add(p.path("name").asText()));
                for (String probe : List.of("livenessProbe", "readinessProbe")) {
                    JsonNode httpGet = container.path(probe).path("httpGet");
                    assertTrue(httpGet.path("path").asText().startsWith("/"), where + ": " + probe + " is not an HTTP check");
                    assertTrue(portNames.contains(httpGet.path("port").asText()), where + ": " + probe + " port is not a container port");
                }
                assertTrue(container.at("/securityContext/readOnlyRootFilesystem").asBoolean(false),
                        where + ": root filesystem is writable");
                assertTrue(StreamSupport.stream(container.at("/securityContext/capabilities/drop").spliterator(), false)
                        .anyMatch(c -> c.asText().equals("ALL")), where + ": capabilities are not dropped");
            }
        }
    }

    @ParameterizedTest
    @MethodSource("overlays")
    void privileges_and_probe_capabilities_exist_only_for_the_agent_of_the_probe_overlay(Path overlay) {
        boolean probeOverlay = overlay.getFileName().toString().equals(PROBES);
        for (Workload workload : workloads(overlay)) {
            boolean probing = probeOverlay && workload.isAgent();
            JsonNode container = workload.container();
            String where = overlay.getFileName() + ": " + workload.name();
            JsonNode security = container.path("securityContext");
            assertEquals(probing, security.path("privileged").asBoolean(false), where + ": privileged");
            assertEquals(probing, security.path("allowPrivilegeEscalation").asBoolean(true), where + ": allowPrivilegeEscalation");
            List<String> added = new ArrayList<>();
            security.path("capabilities").path("add").forEach(c -> added.add(c.asText()));
            assertEquals(probing ? List.of("IPC_LOCK") : List.of(), added, where + ": added capabilities");
            List<String> args = new ArrayList<>();
            container.path("args").forEach(a -> args.add(a.asText()));
            assertEquals(probing, args.contains("--allow-probes"), where + ": --allow-probes in " + args);
            if (probing) {
                // the overlay repeats the base's arguments (a list is replaced whole): none may get lost
                List<String> base = new ArrayList<>(args);
                base.remove("--allow-probes");
                assertEquals(baseAgentArgs(), base, where + ": the base agent's arguments");
            }
            boolean nonRoot = workload.podSpec().at("/securityContext/runAsNonRoot").asBoolean(false)
                    && workload.podSpec().at("/securityContext/runAsUser").asLong(0) != 0;
            assertEquals(!probing, nonRoot, where + ": runs as non-root");

            Map<String, String> hostPaths = new TreeMap<>();
            workload.podSpec().path("volumes").forEach(v -> {
                if (v.has("hostPath")) {
                    hostPaths.put(v.path("name").asText(), v.at("/hostPath/path").asText());
                }
            });
            Map<String, String> expected = new TreeMap<>();
            if (workload.isAgent()) {
                expected.put("sys", "/sys");
                expected.put("pod-resources", "/var/lib/kubelet/pod-resources");
            }
            if (probing) {
                expected.put("infiniband", "/dev/infiniband");
            }
            assertEquals(expected, hostPaths, where + ": host paths");
            assertEquals(workload.isAgent(), workload.podSpec().path("hostNetwork").asBoolean(false), where + ": hostNetwork");
        }
    }

    @ParameterizedTest
    @MethodSource("overlays")
    void the_agent_reads_the_host_sys_read_only_at_sys_with_the_default_host_root(Path overlay) {
        Workload agent = workload(overlay, "rdmamon-agent");
        JsonNode container = agent.container();
        JsonNode sysMount = StreamSupport.stream(container.path("volumeMounts").spliterator(), false)
                .filter(m -> m.path("name").asText().equals("sys")).findFirst().orElseThrow();
        assertEquals("/sys", sysMount.path("mountPath").asText(), "host /sys must be the container's /sys (ethtool ioctl path)");
        assertTrue(sysMount.path("readOnly").asBoolean(false), "/sys mount is writable");
        for (JsonNode mount : container.path("volumeMounts")) {
            assertTrue(mount.path("readOnly").asBoolean(false) || mount.path("mountPath").asText().equals("/tmp")
                            || mount.path("mountPath").asText().equals("/dev/infiniband"),
                    "agent mount " + mount + " is writable");
        }

        List<String> args = texts(container.path("args"));
        assertEquals("agent", args.get(0));
        assertEquals("$(NODE_NAME)", argument(args, "--node"));
        assertEquals("127.0.0.1:" + AGENT_PORT, argument(args, "--listen"), "the agent's own /metrics is unauthenticated");
        for (String probe : List.of("livenessProbe", "readinessProbe")) {
            assertEquals("127.0.0.1", container.path(probe).at("/httpGet/host").asText(), probe + " must reach the loopback listener");
        }
        String hostRoot = args.contains("--host-root") ? argument(args, "--host-root") : "/";
        assertEquals("/", hostRoot, "any other host root makes the agent read ethtool stats from files (docs/architecture.md#host-root)");
        assertEquals("spec.nodeName", env(container, "NODE_NAME").at("/valueFrom/fieldRef/fieldPath").asText());
        assertEquals("ClusterFirstWithHostNet", agent.podSpec().path("dnsPolicy").asText(),
                "with hostNetwork only ClusterFirstWithHostNet resolves the collector's Service");
        assertFalse(agent.podSpec().path("nodeSelector").isEmpty(), "agent has no node selector");
        assertFalse(agent.podSpec().path("tolerations").isEmpty(), "agent tolerates no taint");
    }

    @ParameterizedTest
    @MethodSource("overlays")
    void services_selectors_and_mounts_are_wired_consistently(Path overlay) {
        List<ObjectNode> resources = Kustomize.render(overlay);
        Map<String, JsonNode> byId = new TreeMap<>();
        resources.forEach(r -> byId.put(r.path("kind").asText() + "/" + r.at("/metadata/name").asText(), r));
        String namespace = byId.get("Namespace/rdmamon").at("/metadata/name").asText();
        resources.stream().filter(r -> !r.path("kind").asText().equals("Namespace"))
                .forEach(r -> assertEquals(namespace, r.at("/metadata/namespace").asText(), DeployTree.identity(r)));

        for (Workload workload : workloads(overlay)) {
            JsonNode selector = workload.resource().at("/spec/selector/matchLabels");
            assertTrue(matches(selector, workload.podLabels()), workload.name() + ": selector does not select its pods");
            Set<String> volumes = new HashSet<>();
            for (JsonNode volume : workload.podSpec().path("volumes")) {
                volumes.add(volume.path("name").asText());
                if (volume.has("secret")) {
                    assertNotNull(byId.get("Secret/" + volume.at("/secret/secretName").asText()), workload.name() + ": " + volume);
                }
                if (volume.has("configMap")) {
                    assertNotNull(byId.get("ConfigMap/" + volume.at("/configMap/name").asText()), workload.name() + ": " + volume);
                }
            }
            workload.container().path("volumeMounts").forEach(m ->
                    assertTrue(volumes.contains(m.path("name").asText()), workload.name() + ": mount of undefined volume " + m));
        }

        Workload collector = workload(overlay, "rdmamon-collector");
        JsonNode service = byId.get("Service/rdmamon-collector");
        assertTrue(matches(service.at("/spec/selector"), collector.podLabels()), "Service does not select the collector");
        assertEquals(COLLECTOR_PORT, service.at("/spec/ports/0/port").asInt());
        assertEquals(COLLECTOR_PORT, collector.container().at("/ports/0/containerPort").asInt());
        JsonNode monitor = byId.get("ServiceMonitor/rdmamon-collector");
        assertTrue(matches(monitor.at("/spec/selector/matchLabels"), service.at("/metadata/labels")),
                "ServiceMonitor does not select the Service");
        assertEquals(service.at("/spec/ports/0/name").asText(), monitor.at("/spec/endpoints/0/port").asText());
        assertEquals("viewer", monitor.at("/spec/endpoints/0/authorization/credentials/key").asText(),
                "Prometheus scrapes with the viewer token");

        String configPath = argument(texts(collector.container().path("args")), "--config");
        JsonNode configMount = StreamSupport.stream(collector.container().path("volumeMounts").spliterator(), false)
                .filter(m -> m.path("mountPath").asText().equals(configPath)).findFirst().orElseThrow();
        JsonNode config = byId.get("ConfigMap/rdmamon-collector").path("data").path(configMount.path("subPath").asText());
        assertTrue(config.isTextual(), "--config " + configPath + " is not a key of the ConfigMap");
        assertEquals("0.0.0.0:" + COLLECTOR_PORT, readJson(config.asText()).path("listen").asText());
        for (String role : List.of("AGENT", "VIEWER", "OPERATOR")) {
            String tokenFile = env(collector.container(), "RDMAMON_" + role + "_TOKEN_FILE").path("value").asText();
            assertTrue(tokenFile.startsWith("/etc/rdmamon/tokens/"), role + " token file " + tokenFile);
            assertTrue(byId.get("Secret/rdmamon-tokens").path("stringData").has(tokenFile.substring(tokenFile.lastIndexOf('/') + 1)));
        }
        JsonNode agentTokens = StreamSupport.stream(workload(overlay, "rdmamon-agent").podSpec().path("volumes").spliterator(), false)
                .filter(v -> v.has("secret")).findFirst().orElseThrow();
        assertEquals(List.of("agent"), StreamSupport.stream(agentTokens.at("/secret/items").spliterator(), false)
                .map(i -> i.path("key").asText()).toList(), "agents get the agent token and nothing else");
    }

    @ParameterizedTest
    @MethodSource("overlays")
    void only_agents_and_scrapers_reach_the_collector(Path overlay) {
        JsonNode policy = Kustomize.render(overlay).stream().filter(r -> r.path("kind").asText().equals("NetworkPolicy"))
                .findFirst().orElseThrow();
        assertTrue(matches(policy.at("/spec/podSelector/matchLabels"), workload(overlay, "rdmamon-collector").podLabels()));
        assertEquals(List.of("Ingress"), texts(policy.at("/spec/policyTypes")));
        JsonNode rules = policy.at("/spec/ingress");
        assertEquals(2, rules.size(), "one rule for agents, one for scrapers");
        for (JsonNode rule : rules) {
            assertFalse(rule.path("from").isEmpty(), "an ingress rule without from admits everyone: " + rule);
            assertEquals(List.of(String.valueOf(COLLECTOR_PORT)), StreamSupport.stream(rule.path("ports").spliterator(), false)
                    .map(p -> p.path("port").asText()).toList());
        }
        assertTrue(rules.get(0).at("/from/0/ipBlock/cidr").isTextual(), "agents (hostNetwork) are admitted by node CIDR");
        assertTrue(rules.get(1).at("/from/0/namespaceSelector").isObject() && rules.get(1).at("/from/0/podSelector").isObject(),
                "scrapers are admitted by namespace and pod labels together");
    }

    @ParameterizedTest
    @MethodSource("overlays")
    void the_committed_token_secret_holds_no_usable_token(Path overlay) {
        JsonNode secret = Kustomize.render(overlay).stream().filter(r -> r.path("kind").asText().equals("Secret"))
                .findFirst().orElseThrow();
        assertFalse(secret.has("data"), "tokens belong in stringData placeholders, never as committed data");
        secret.path("stringData").fields().forEachRemaining(entry -> entry.getValue().asText().lines()
                .forEach(line -> assertTrue(line.isBlank() || line.strip().startsWith("#"),
                        "Secret key " + entry.getKey() + " holds a token in the repository")));
    }

    @Test
    void the_probe_overlay_changes_nothing_but_the_agent() {
        Map<String, JsonNode> monitoring = new TreeMap<>();
        Kustomize.render(DeployTree.OVERLAYS.resolve("monitoring")).forEach(r -> monitoring.put(DeployTree.identity(r), r));
        Map<String, JsonNode> probes = new TreeMap<>();
        Kustomize.render(DeployTree.OVERLAYS.resolve(PROBES)).forEach(r -> probes.put(DeployTree.identity(r), r));

        assertEquals(monitoring.keySet(), probes.keySet());
        monitoring.forEach((id, resource) -> {
            if (!id.equals("DaemonSet/rdmamon/rdmamon-agent")) {
                assertEquals(resource, probes.get(id), id + " differs between overlays");
            }
        });
    }

    /** A Deployment or DaemonSet with its single container. */
    record Workload(JsonNode resource) {
        String name() {
            return resource.at("/metadata/name").asText();
        }

        boolean isAgent() {
            return resource.path("kind").asText().equals("DaemonSet");
        }

        JsonNode podSpec() {
            return resource.at("/spec/template/spec");
        }

        JsonNode podLabels() {
            return resource.at("/spec/template/metadata/labels");
        }

        JsonNode container() {
            assertEquals(1, podSpec().path("containers").size(), name() + ": one container expected");
            return podSpec().path("containers").get(0);
        }
    }

    private static List<Workload> workloads(Path overlay) {
        List<Workload> workloads = Kustomize.render(overlay).stream()
                .filter(r -> Set.of("Deployment", "DaemonSet").contains(r.path("kind").asText())).map(Workload::new).toList();
        assertEquals(2, workloads.size(), overlay + ": the agent DaemonSet and the collector Deployment");
        return workloads;
    }

    /** The agent's arguments in the counters-only overlay. */
    private static List<String> baseAgentArgs() {
        Path monitoring = DeployTree.OVERLAYS.resolve("monitoring");
        return texts(workloads(monitoring).stream().filter(Workload::isAgent).findFirst().orElseThrow().container().path("args"));
    }

    private static Workload workload(Path overlay, String name) {
        return workloads(overlay).stream().filter(w -> w.name().equals(name)).findFirst().orElseThrow();
    }

    private static boolean matches(JsonNode selector, JsonNode labels) {
        if (selector.isEmpty()) {
            return false;
        }
        for (var it = selector.fields(); it.hasNext(); ) {
            var entry = it.next();
            if (!entry.getValue().equals(labels.get(entry.getKey()))) {
                return false;
            }
        }
        return true;
    }

    private static List<String> texts(JsonNode array) {
        List<String> texts = new ArrayList<>();
        array.forEach(e -> texts.add(e.asText()));
        return texts;
    }

    private static String argument(List<String> args, String flag) {
        int index = args.indexOf(flag);
        assertTrue(index >= 0 && index + 1 < args.size(), flag + " missing from " + args);
        return args.get(index + 1);
    }

    private static JsonNode env(JsonNode container, String name) {
        return StreamSupport.stream(container.path("env").spliterator(), false)
                .filter(e -> e.path("name").asText().equals(name)).findFirst()
                .orElseThrow(() -> new AssertionError("env " + name + " not set"));
    }

    private static JsonNode readJson(String text) {
        try {
            return new ObjectMapper().readTree(text);
        } catch (Exception e) {
            throw new AssertionError("collector config is not JSON: " + e.getMessage(), e);
        }
    }
}
