package io.rdmamon.collector.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import io.rdmamon.collector.cluster.ClusterBoot;
import io.rdmamon.collector.cluster.ClusterConfig;
import io.rdmamon.collector.cluster.ClusterTls;
import io.rdmamon.collector.config.ConfigException;
import io.rdmamon.collector.config.ListenAddress;
import io.vertx.core.VertxOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The high-availability overlay (docs/deploy.md, "High availability"; docs/architecture.md "Cluster"): three collector
 * replicas that
 * find each other through a headless Service, bind the cluster to the pod's own address, leave one at a time, keep
 * the cluster ports to themselves, and are all scraped with one identity per node.
 */
class HaOverlayTest {
    static final String HA = "ha";
    private static final Map<String, JsonNode> RENDERED = render();

    private static Map<String, JsonNode> render() {
        Map<String, JsonNode> byId = new HashMap<>();
        Kustomize.render(DeployTree.OVERLAYS.resolve(HA)).forEach(r -> byId.put(DeployTree.identity(r), r));
        return byId;
    }

    private static JsonNode resource(String kind, String name) {
        JsonNode found = RENDERED.entrySet().stream().filter(e -> e.getValue().path("kind").asText().equals(kind)
                && e.getValue().at("/metadata/name").asText().equals(name)).map(Map.Entry::getValue).findFirst().orElse(null);
        assertNotNull(found, kind + "/" + name + " in the ha overlay; rendered: " + RENDERED.keySet());
        return found;
    }

    private static JsonNode collectorContainer() {
        return resource("Deployment", "rdmamon-collector").at("/spec/template/spec/containers/0");
    }

    private static String env(String name) {
        for (JsonNode variable : collectorContainer().path("env")) {
            if (variable.path("name").asText().equals(name)) {
                return variable.has("value") ? variable.path("value").asText() : variable.at("/valueFrom/fieldRef/fieldPath").asText();
            }
        }
        return null;
    }

    @Test
    void threeReplicasRollOneAtATimeAndSpreadOverNodes() {
        JsonNode deployment = resource("Deployment", "rdmamon-collector");
        assertEquals(3, deployment.at("/spec/replicas").asInt());
        assertEquals("RollingUpdate", deployment.at("/spec/strategy/type").asText());
        assertEquals(0, deployment.at("/spec/strategy/rollingUpdate/maxSurge").asInt());
        assertEquals(1, deployment.at("/spec/strategy/rollingUpdate/maxUnavailable").asInt());
        assertEquals("kubernetes.io/hostname", deployment.at("/spec/template/spec/affinity/podAntiAffinity"
                + "/preferredDuringSchedulingIgnoredDuringExecution/0/podAffinityTerm/topologyKey").asText());
        JsonNode pdb = resource("PodDisruptionBudget", "rdmamon-collector");
        assertEquals(1, pdb.at("/spec/maxUnavailable").asInt());
        assertEquals(deployment.at("/spec/selector/matchLabels"), pdb.at("/spec/selector/matchLabels"));
    }

    @Test
    void eachReplicaBindsItsPodAddressAndFindsTheOthersThroughTheHeadlessService() {
        assertEquals("status.podIP", env("POD_IP"));
        assertEquals("$(POD_IP):5701", env("RDMAMON_CLUSTER_LISTEN"));
        JsonNode headless = resource("Service", "rdmamon-collector-cluster");
        assertEquals("rdmamon-collector-cluster.$(POD_NAMESPACE).svc.cluster.local", env("RDMAMON_CLUSTER_KUBERNETES_SERVICE_DNS"));
        assertEquals("metadata.namespace", env("POD_NAMESPACE"));
        assertEquals("None", headless.at("/spec/clusterIP").asText());
        assertTrue(headless.at("/spec/publishNotReadyAddresses").asBoolean(), "starting replicas must find each other");
        assertEquals(resource("Deployment", "rdmamon-collector").at("/spec/template/metadata/labels/app.kubernetes.io~1component"),
                headless.at("/spec/selector/app.kubernetes.io~1component"));
        Map<String, Integer> containerPorts = new HashMap<>();
        collectorContainer().path("ports").forEach(p -> containerPorts.put(p.path("name").asText(), p.path("containerPort").asInt()));
        assertEquals(5701, containerPorts.get("cluster"));
        assertEquals(5702, containerPorts.get("eventbus"), "the event bus takes the member port + 1");
        headless.at("/spec/ports").forEach(p -> assertEquals(containerPorts.get(p.path("targetPort").asText()),
                p.path("port").asInt(), "headless port " + p));
    }

    @Test
    void theClusterPortsSpeakMutualTlsWithTheMountedSecret() {
        String mount = null;
        for (JsonNode m : collectorContainer().path("volumeMounts")) {
            if (m.path("name").asText().equals("cluster-tls")) {
                mount = m.path("mountPath").asText();
                assertTrue(m.path("readOnly").asBoolean());
            }
        }
        assertEquals("/etc/rdmamon/cluster-tls", mount);
        assertEquals(mount + "/tls.crt", env("RDMAMON_CLUSTER_TLS_CERT_FILE"));
        assertEquals(mount + "/tls.key", env("RDMAMON_CLUSTER_TLS_KEY_FILE"));
        assertEquals(mount + "/ca.crt", env("RDMAMON_CLUSTER_TLS_CA_FILE"));
        boolean secret = false;
        for (JsonNode v : resource("Deployment", "rdmamon-collector").at("/spec/template/spec/volumes")) {
            secret |= v.path("name").asText().equals("cluster-tls")
                    && v.at("/secret/secretName").asText().equals("rdmamon-cluster-tls");
        }
        assertTrue(secret, "the cluster-tls volume is the Secret rdmamon-cluster-tls");
        assertEquals(null, env("RDMAMON_CLUSTER_INSECURE"), "never --insecure-cluster in the shipped overlay");
    }

    @Test
    void theCommittedPlaceholderCertificateStopsAReplica(@TempDir Path dir) throws Exception {
        JsonNode placeholders = resource("Secret", "rdmamon-cluster-tls").path("stringData");
        Map<String, Path> files = new HashMap<>();
        for (String key : List.of("tls.crt", "tls.key", "ca.crt")) {
            assertTrue(placeholders.path(key).asText().startsWith("#"), key + " must be a placeholder, not a key");
            files.put(key, Files.writeString(dir.resolve(key), placeholders.path(key).asText()));
        }
        ClusterConfig cluster = new ClusterConfig(new ListenAddress("127.0.0.1", 5701), List.of("127.0.0.1:5701"), null,
                ClusterConfig.DEFAULT_NAME, 0, new ClusterTls(files.get("tls.crt"), files.get("tls.key"), files.get("ca.crt")));
        Throwable refused = ClusterBoot.start(cluster, new VertxOptions()).toCompletionStage().toCompletableFuture()
                .handle((booted, e) -> e).get(30, TimeUnit.SECONDS);
        assertTrue(refused instanceof ConfigException && refused.getMessage().contains("cluster.tls.certFile"),
                "the placeholder must stop the replica, naming the file: " + refused);
    }

    @Test
    void theClusterPortsAdmitOnlyTheOtherReplicas() {
        JsonNode policy = resource("NetworkPolicy", "rdmamon-collector-cluster");
        JsonNode rules = policy.at("/spec/ingress");
        assertEquals(1, rules.size());
        assertEquals(resource("Deployment", "rdmamon-collector").at("/spec/selector/matchLabels"),
                rules.at("/0/from/0/podSelector/matchLabels"), "from collector pods only");
        assertEquals(1, rules.at("/0/from").size());
        List<Integer> ports = new ArrayList<>();
        rules.at("/0/ports").forEach(p -> ports.add(p.path("port").asInt()));
        assertEquals(List.of(5701, 5702), ports);
        // the other policy (agents, scrapers) still admits the HTTP port only
        resource("NetworkPolicy", "rdmamon-collector").at("/spec/ingress").forEach(rule -> rule.path("ports")
                .forEach(p -> assertEquals(9470, p.path("port").asInt())));
    }

    @Test
    void prometheusScrapesEveryReplicaAndANodesSeriesKeepOneInstance() {
        JsonNode endpoint = resource("ServiceMonitor", "rdmamon-collector").at("/spec/endpoints/0");
        List<String> relabelled = new ArrayList<>();
        for (JsonNode relabel : endpoint.path("metricRelabelings")) {
            assertEquals("__name__", relabel.at("/sourceLabels/0").asText());
            String regex = relabel.path("regex").asText();
            if (relabel.path("targetLabel").asText().equals("replica")) {
                // before the instance is replaced: rdma_agent_up keeps its exporting pod for the alert inhibition
                assertEquals("instance", relabel.at("/sourceLabels/1").asText());
                assertEquals("rdma_agent_up;(.*)", regex);
            } else {
                assertEquals("rdma_.*", regex, "only the fleet's series, not rdmamon_collector_*");
            }
            relabelled.add(relabel.path("targetLabel").asText() + "=" + relabel.path("replacement").asText());
        }
        assertEquals(List.of("replica=$1", "instance=rdmamon-collector", "pod="), relabelled);
        // the ServiceMonitor selects the agent-facing Service, whose endpoints are every replica
        assertEquals(resource("Service", "rdmamon-collector").at("/metadata/labels/app.kubernetes.io~1component"),
                resource("ServiceMonitor", "rdmamon-collector").at("/spec/selector/matchLabels/app.kubernetes.io~1component"));
    }
}
