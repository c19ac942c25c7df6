package io.rdmamon.cli.it;

import io.rdmamon.protocol.testing.Slow;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rdmamon.collector.TestCertificate;
import io.rdmamon.protocol.testing.Waits;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The cluster's trust model with real collector JVMs on loopback (issue 23, items 2 and 3). With {@code cluster.tls}
 * an outsider — a collector with a certificate of its own, or one without TLS — never becomes a member: the replicas
 * keep seeing each other only and the outsider sees none of the fleet. Without TLS (loopback, or
 * {@code --insecure-cluster}) an outsider can join, but the frames it sends for an agent are refused by the agent's
 * replica, because they are not sealed with the cluster's operator tokens (its probe dies waiting for a perftest
 * server no agent started), while a real replica's are forwarded (its probe ends in the agent's perftest error).
 */
@Slow
@Order(5) // the longest ITs start first (docs/testing.md)
class ClusterTrustIT {
    private static final Path FIXTURE = Path.of("..", "agent", "src", "test", "fixtures", "mlx5-roce");
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration FORMED = Duration.ofSeconds(90);
    private static final String OPERATOR = "operator-token-of-the-fleet";
    private static final String AGENT = "agent-token-of-the-fleet";
    private static final String VIEWER = "viewer-token-of-the-fleet";

    @TempDir
    Path work;
    private final List<ReplicaProcess> processes = new ArrayList<>();
    private final List<AgentProcess> agents = new ArrayList<>();

    @BeforeEach
    void jar() {
        assumeTrue(Files.isRegularFile(AgentProcess.JAR), "cli/target/rdmamon.jar is not built (run mvn verify)");
    }

    @AfterEach
    void stop() throws InterruptedException {
        for (AgentProcess agent : agents) {
            agent.close();
        }
        for (ReplicaProcess process : processes) {
            process.close();
        }
    }

    @Test
    void withClusterTlsAnOutsiderNeverJoinsNorSeesTheFleet() throws Exception {
        Path dir = Files.createDirectories(work.resolve("fleet-cert"));
        TestCertificate fleet = TestCertificate.generate(dir);
        Path config = config(work.resolve("fleet.json"), fleet, OPERATOR);
        List<ReplicaProcess> replicas = start(ReplicaProcess.plan(work, 2, List.of("--config", config.toString())));
        for (ReplicaProcess replica : replicas) {
            awaitMembers(replica, 2, VIEWER);
        }
        agents.add(AgentProcess.start(work, "trusted-0", FIXTURE, replicas.get(0).url(), "--token-file",
                Files.writeString(work.resolve("agent.token"), AGENT).toString()));
        poll("trusted-0 seen by both replicas", () -> List.of(nodes(replicas.get(0), VIEWER), nodes(replicas.get(1), VIEWER)),
                both -> both.stream().allMatch(n -> n.size() == 1));

        // an outsider with a certificate of its own (signed by no CA the fleet trusts), and one with no TLS at all
        Path ownDir = Files.createDirectories(work.resolve("own-cert"));
        TestCertificate own = TestCertificate.generate(ownDir);
        String members = ReplicaProcess.members(replicas);
        ReplicaProcess forged = start(ReplicaProcess.outsider(work, "outsider-cert", members,
                List.of("--config", config(work.resolve("outsider.json"), own, OPERATOR).toString())));
        ReplicaProcess plain = start(ReplicaProcess.outsider(work, "outsider-plain", members,
                List.of("--config", Files.writeString(work.resolve("plain.json"), "{\"tokens\": [{\"role\": \"viewer\","
                        + " \"token\": \"" + VIEWER + "\"}]}").toString())));
        for (ReplicaProcess outsider : List.of(forged, plain)) {
            poll(outsider.url() + " is up", () -> cluster(outsider, VIEWER), c -> c != null);
        }
        // MERGE3 looks for other views every 2-5 s and a join takes seconds: 20 s is several chances to get in
        long until = System.currentTimeMillis() + 20_000;
        while (System.currentTimeMillis() < until) {
            for (ReplicaProcess replica : replicas) {
                assertEquals(2, cluster(replica, VIEWER).path("members").size(), replica.url() + " let an outsider in: "
                        + cluster(replica, VIEWER));
            }
            Thread.sleep(1000);
        }
        for (ReplicaProcess outsider : List.of(forged, plain)) {
            assertEquals(1, cluster(outsider, VIEWER).path("members").size(), outsider.url() + " joined the fleet");
            assertTrue(nodes(outsider, VIEWER).isEmpty(), outsider.url() + " reads the node directory");
            assertTrue(outsider.isAlive(), outsider.url() + " died instead of running alone");
        }
        for (ReplicaProcess replica : replicas) {
            assertTrue(replica.isAlive());
            assertEquals(1, nodes(replica, VIEWER).size(), "the fleet is intact on " + replica.url());
        }
    }

    @Test
    void withoutTlsAnOutsiderMayJoinButItsFramesForAnAgentAreRefused() throws Exception {
        Path config = Files.writeString(work.resolve("fleet.json"), tokens(OPERATOR));
        List<ReplicaProcess> replicas = start(ReplicaProcess.plan(work, 2, List.of("--config", config.toString())));
        String token = Files.writeString(work.resolve("agent.token"), AGENT).toString();
        // real perftest on a fixture host: a start frame that reaches an agent ends in perftest's own error at once
        agents.add(AgentProcess.start(work, "held-0", FIXTURE, replicas.get(0).url(), "--token-file", token,
                "--allow-probes"));
        agents.add(AgentProcess.start(work, "held-1", FIXTURE, replicas.get(1).url(), "--token-file", token,
                "--allow-probes"));
        ReplicaProcess outsider = start(ReplicaProcess.outsider(work, "outsider", ReplicaProcess.members(replicas),
                List.of("--config", Files.writeString(work.resolve("outsider.json"), tokens("a-guessed-operator-token"))
                        .toString())));
        for (ReplicaProcess member : List.of(replicas.get(0), replicas.get(1), outsider)) {
            awaitMembers(member, 3, VIEWER);
            poll("both agents seen by " + member.url(), () -> nodes(member, VIEWER), n -> n.size() == 2
                    && n.stream().allMatch(node -> node.path("connected").asBoolean()));
        }
        String probe = "{\"source\": {\"node\": \"held-0\", \"device\": \"mlx5_0\", \"port\": 1}, \"destination\":"
                + " {\"node\": \"held-1\", \"device\": \"mlx5_0\", \"port\": 1}, \"durationSeconds\": 2}";

        HttpResponse<String> forgedStart = outsider.post("/api/probes", "a-guessed-operator-token", probe);
        assertEquals(202, forgedStart.statusCode(), forgedStart.body());
        String forgedId = JSON.readTree(forgedStart.body()).path("id").asText();
        poll("the agent's replica refuses the outsider's frame", () -> replicas.get(0).log() + replicas.get(1).log(),
                log -> log.contains("from another member was refused: seal does not verify"));
        JsonNode forged = poll("the outsider's probe ends", () -> json(outsider.get("/api/probes/" + forgedId, VIEWER)),
                p -> p != null && p.path("state").asText().equals("failed"));
        assertTrue(forged.toString().contains("did not report its perftest server listening"),
                "the outsider's probe must die waiting for a server no agent started: " + forged);

        HttpResponse<String> realStart = replicas.get(1).post("/api/probes", OPERATOR, probe);
        assertEquals(202, realStart.statusCode(), realStart.body());
        String realId = JSON.readTree(realStart.body()).path("id").asText();
        JsonNode real = poll("the real replica's probe reaches the agent held by the other replica",
                () -> json(replicas.get(1).get("/api/probes/" + realId, VIEWER)),
                p -> p != null && p.path("state").asText().equals("failed"));
        assertFalse(real.toString().contains("did not report its perftest server listening"),
                "the real replica's frames reached the agent, whose perftest answered: " + real);
        assertFalse((replicas.get(0).log() + replicas.get(1).log()).split("seal does not verify", -1).length > 3,
                "only the outsider's two frames (server start, and at most a stop) were refused");
    }

    private static String tokens(String operator) {
        return "{\"tokens\": [{\"role\": \"operator\", \"token\": \"" + operator + "\"}, {\"role\": \"agent\", \"token\": \""
                + AGENT + "\"}, {\"role\": \"viewer\", \"token\": \"" + VIEWER + "\"}]}";
    }

    /** A collector config with the fleet's tokens and {@code cert} as the cluster identity and only trusted CA. */
    private static Path config(Path file, TestCertificate cert, String operator) throws IOException {
        String tokens = tokens(operator);
        return Files.writeString(file, tokens.substring(0, tokens.length() - 1) + ", \"cluster\": {\"tls\": {\"certFile\": \""
                + cert.certFile() + "\", \"keyFile\": \"" + cert.keyFile() + "\", \"caFile\": \"" + cert.certFile() + "\"}}}");
    }

    private List<ReplicaProcess> start(List<ReplicaProcess> planned) throws IOException {
        for (ReplicaProcess replica : planned) {
            start(replica);
        }
        return planned;
    }

    private ReplicaProcess start(ReplicaProcess replica) throws IOException {
        processes.add(replica);
        replica.start();
        return replica;
    }

    private static JsonNode cluster(ReplicaProcess replica, String token) throws IOException {
        return json(replica.get("/api/cluster", token));
    }

    private static List<JsonNode> nodes(ReplicaProcess replica, String token) throws IOException {
        List<JsonNode> nodes = new ArrayList<>();
        JsonNode body = json(replica.get("/api/nodes", token));
        if (body != null) {
            body.path("nodes").forEach(nodes::add);
        }
        return nodes;
    }

    private static JsonNode json(String body) throws IOException {
        return body == null ? null : JSON.readTree(body);
    }

    private void awaitMembers(ReplicaProcess replica, int count, String token) throws Exception {
        poll(replica.url() + " sees " + count + " members", () -> cluster(replica, token),
                c -> c != null && c.path("members").size() == count);
    }

    private <T> T poll(String what, Waits.Probe<T, Exception> probe, Predicate<? super T> done) throws Exception {
        try {
            return Waits.poll(what, probe, done, FORMED, Duration.ofMillis(250));
        } catch (AssertionError e) {
            StringBuilder logs = new StringBuilder(e.getMessage());
            for (ReplicaProcess process : processes) {
                String log = process.log();
                logs.append("\n--- ").append(process.url()).append(":\n").append(log.substring(Math.max(0, log.length() - 3000)));
            }
            throw new AssertionError(logs.toString(), e);
        }
    }
}
