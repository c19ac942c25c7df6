package io.rdmamon.cli.it;

import io.rdmamon.protocol.testing.Slow;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rdmamon.protocol.testing.Waits;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Three collector replicas as separate JVM processes on loopback (one Vert.x cluster with Infinispan) and five real
 * agents, each given all three URLs starting with a different replica (docs/architecture.md "Cluster", issue 16):
 * every replica answers for the whole fleet and each node is exported by exactly one; a replica that hangs and is
 * then killed ({@code kill -STOP}, 5 s, {@code kill -9}) loses its agents to the others within 10 s, and their
 * replay leaves no gap in the new replica's history (the samples taken while it hung reach it); the killed replica
 * restarted rejoins; a replica stopped with SIGTERM drains its agents (close 1012) with no gap either; a replica
 * frozen ({@code kill -STOP}) until the survivor has dropped it and holds every agent, then thawed ({@code -CONT}),
 * merges back and every replica's fleet view is whole.
 */
@Slow
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Order(8) // the longest ITs start first (docs/testing.md)
class ClusterIT {
    private static final Path FIXTURE = Path.of("..", "agent", "src", "test", "fixtures", "mlx5-roce");
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int AGENTS = 5;
    private static final Duration FORMED = Duration.ofSeconds(90);
    private static final Duration POLL = Duration.ofMillis(250);
    /** Samples are taken every second: a step above this between two history points is a lost sample. */
    private static final long MAX_STEP_MILLIS = 1600;

    @TempDir
    static Path work;
    private static List<ReplicaProcess> replicas;
    private static final List<AgentProcess> agents = new ArrayList<>();

    @BeforeAll
    static void startCluster() throws Exception {
        assumeTrue(Files.isRegularFile(AgentProcess.JAR), "cli/target/rdmamon.jar is not built (run mvn verify)");
        replicas = ReplicaProcess.plan(work, 3);
        for (ReplicaProcess replica : replicas) {
            replica.start();
        }
        for (ReplicaProcess replica : replicas) {
            awaitMembers(replica, 3);
        }
        for (int i = 0; i < AGENTS; i++) {
            List<String> urls = new ArrayList<>();
            for (int k = 0; k < 3; k++) {
                urls.add(replicas.get((i + k) % 3).url());
            }
            agents.add(AgentProcess.start(work, node(i), FIXTURE, String.join(",", urls)));
        }
        for (ReplicaProcess replica : replicas) {
            poll("the whole fleet connected, seen from " + replica.url(), () -> nodes(replica),
                    nodes -> nodes.size() == AGENTS && nodes.values().stream().allMatch(n -> n.path("connected").asBoolean()));
        }
    }

    @AfterAll
    static void stopCluster() throws Exception {
        for (AgentProcess agent : agents) {
            agent.close();
        }
        if (replicas != null) {
            for (ReplicaProcess replica : replicas) {
                replica.close();
            }
        }
    }

    private static String node(int i) {
        return "cl-" + i;
    }

    @Test
    @Order(1)
    void everyReplicaAnswersForTheWholeFleetAndEachNodeIsExportedOnce() throws Exception {
        List<String> ids = new ArrayList<>();
        for (ReplicaProcess replica : replicas) {
            ids.add(cluster(replica).path("self").asText());
        }
        for (ReplicaProcess replica : replicas) {
            Set<String> members = new HashSet<>();
            cluster(replica).path("members").forEach(m -> members.add(m.path("id").asText()));
            assertEquals(new HashSet<>(ids), members, replica.url() + " lists the three members");
            Map<String, JsonNode> seen = nodes(replica);
            for (int i = 0; i < AGENTS; i++) {
                assertEquals(ids.get(i % 3), seen.get(node(i)).path("replica").asText(),
                        node(i) + " as " + replica.url() + " sees it: held by its first URL's replica");
            }
        }
        Map<String, Integer> exported = new HashMap<>();
        for (int r = 0; r < 3; r++) {
            String metrics = replicas.get(r).get("/metrics");
            for (int i = 0; i < AGENTS; i++) {
                if (metrics.contains("rdma_agent_up{node=\"" + node(i) + "\"}")) {
                    exported.merge(node(i), 1, Integer::sum);
                    assertEquals(i % 3, r, node(i) + " exported by the replica that holds it");
                }
            }
        }
        for (int i = 0; i < AGENTS; i++) {
            assertEquals(1, exported.getOrDefault(node(i), 0), node(i) + " is exported by exactly one replica");
        }
    }

    @Test
    @Order(2)
    void aHungThenKilledReplicasAgentsMoveWithinTenSecondsAndReplayEverySample() throws Exception {
        ReplicaProcess victim = replicas.get(2);
        ReplicaProcess next = replicas.get(0); // agent 2's URLs: replica 2, 0, 1
        String victimId = cluster(victim).path("self").asText();
        String nextId = cluster(next).path("self").asText();
        long lastSeen = nodes(victim).get(node(2)).path("lastSampleTimestampMillis").asLong();
        victim.freeze();
        Thread.sleep(5000); // the agent keeps sampling and sending; nothing is acknowledged
        long killed = System.currentTimeMillis();
        victim.kill();

        poll(node(2) + " connected to " + next.url(), () -> nodes(next).get(node(2)),
                n -> n != null && n.path("connected").asBoolean() && nextId.equals(n.path("replica").asText()));
        long moved = System.currentTimeMillis() - killed;
        assertTrue(moved <= 10_000, node(2) + " back on a replica after " + moved + " ms (goal: 10 s)");

        awaitMembers(replicas.get(0), 2);
        awaitMembers(replicas.get(1), 2);
        for (ReplicaProcess survivor : List.of(replicas.get(0), replicas.get(1))) {
            Map<String, JsonNode> seen = nodes(survivor);
            assertEquals(AGENTS, seen.size(), "every node once, none stale, on " + survivor.url());
            seen.values().forEach(n -> assertTrue(!victimId.equals(n.path("replica").asText()),
                    n.path("node").asText() + " still held by the dead replica, as " + survivor.url() + " says"));
        }
        assertReplayedWithoutGap(next, node(2), lastSeen, killed);
    }

    @Test
    @Order(3)
    void theKilledReplicaRestartedRejoins() throws Exception {
        replicas.get(2).start();
        for (ReplicaProcess replica : replicas) {
            awaitMembers(replica, 3);
        }
    }

    @Test
    @Order(4)
    void aReplicaStoppedWithSigtermDrainsItsAgentsWithNoGap() throws Exception {
        ReplicaProcess victim = replicas.get(1);
        ReplicaProcess next = replicas.get(2); // agents 1 and 4: URLs replica 1, 2, 0
        String nextId = cluster(next).path("self").asText();
        Map<String, JsonNode> before = nodes(victim);
        long stopped = System.currentTimeMillis();
        victim.terminate();
        for (int i : List.of(1, 4)) {
            poll(node(i) + " drained to " + next.url(), () -> nodes(next).get(node(i)),
                    n -> n != null && n.path("connected").asBoolean() && nextId.equals(n.path("replica").asText()));
        }
        assertTrue(System.currentTimeMillis() - stopped <= 10_000, "drained within 10 s");
        for (int i : List.of(1, 4)) {
            assertReplayedWithoutGap(next, node(i), before.get(node(i)).path("lastSampleTimestampMillis").asLong(), stopped);
            assertTrue(agents.get(i).log().contains("1012"), "agent " + node(i) + " was told to move (1012): "
                    + agents.get(i).log());
        }
    }

    @Test
    @Order(5)
    void aReplicaFrozenLongerThanTheFailureTimeoutRejoinsAndTheFleetViewIsWholeOnEveryReplica() throws Exception {
        ReplicaProcess frozen = replicas.get(2); // holds agents 1 and 4 since replica 1 was stopped
        ReplicaProcess survivor = replicas.get(0);
        String survivorId = cluster(survivor).path("self").asText();
        frozen.freeze();
        // frozen until the survivor has dropped it from the view (the failure detector) and holds every agent (their
        // acknowledgement deadline made them move): the partition this test heals, reached by its events
        awaitMembers(survivor, 1);
        poll("every agent moved to " + survivor.url() + " while " + frozen.url() + " is frozen", () -> nodes(survivor),
                nodes -> nodes.size() == AGENTS && nodes.values().stream().allMatch(n ->
                        n.path("connected").asBoolean() && survivorId.equals(n.path("replica").asText())));
        frozen.thaw();
        for (ReplicaProcess replica : List.of(survivor, frozen)) {
            awaitMembers(replica, 2);
            poll("the whole fleet, connected and held by the survivor, seen from " + replica.url() + " after the merge",
                    () -> nodes(replica), nodes -> nodes.size() == AGENTS && nodes.values().stream().allMatch(n ->
                            n.path("connected").asBoolean() && survivorId.equals(n.path("replica").asText())));
        }
        poll("each node exported by exactly one replica after the merge", () -> {
            String both = survivor.get("/metrics") + frozen.get("/metrics");
            int exported = 0;
            for (int i = 0; i < AGENTS; i++) {
                exported += both.split("rdma_agent_up\\{node=\"" + node(i) + "\"}", -1).length - 1;
            }
            return exported;
        }, exported -> exported == AGENTS);
    }

    /**
     * The new replica's history of {@code node} reaches back to {@code lastSeen} (the last sample the old replica had
     * when the test last asked it) and has no step longer than a sample interval since: what the old replica never
     * acknowledged was replayed, and what it acknowledged in its last seconds was sent again (the agent keeps its
     * last acknowledged samples for that), so no sample is missing between the two replicas.
     */
    private static void assertReplayedWithoutGap(ReplicaProcess replica, String node, long lastSeen, long since)
            throws Exception {
        JsonNode history = poll("history of " + node + " on " + replica.url() + " reaches past the move",
                () -> json(replica.get("/api/nodes/" + node + "/history")),
                h -> h != null && points(h).size() >= 3 && points(h).get(points(h).size() - 1) > since + 2000);
        List<Long> points = points(history);
        assertTrue(points.get(0) <= lastSeen, node + ": the new replica's history starts at " + points.get(0)
                + ", after " + lastSeen + ", the last sample the old replica had: the samples between were lost");
        for (int k = 1; k < points.size(); k++) {
            if (points.get(k) <= lastSeen) {
                // before the move: the agent's first reads (a cold JVM on a loaded machine) may overrun the interval
                // and skip a beat, which is the agent's choice, not a sample lost between replicas
                continue;
            }
            long step = points.get(k) - points.get(k - 1);
            if (step > MAX_STEP_MILLIS) {
                String log = replica.log();
                fail(node + ": " + step + " ms between samples at " + points.get(k - 1) + " and " + points.get(k)
                        + " on " + replica.url() + "; the node there: " + nodes(replica).get(node) + "\n--- its log:\n"
                        + log.substring(Math.max(0, log.length() - 4000)) + "\n--- the agent's log:\n"
                        + agents.get(Integer.parseInt(node.substring(node.indexOf('-') + 1))).log());
            }
        }
    }

    private static List<Long> points(JsonNode history) {
        List<Long> timestamps = new ArrayList<>();
        history.path("ports").get(0).path("points").forEach(p -> timestamps.add(p.path("timestampMillis").asLong()));
        return timestamps;
    }

    private static JsonNode cluster(ReplicaProcess replica) throws IOException {
        return json(replica.get("/api/cluster"));
    }

    private static Map<String, JsonNode> nodes(ReplicaProcess replica) throws IOException {
        JsonNode body = json(replica.get("/api/nodes"));
        Map<String, JsonNode> byName = new HashMap<>();
        if (body != null) {
            body.path("nodes").forEach(n -> {
                if (byName.put(n.path("node").asText(), n) != null) {
                    fail(n.path("node").asText() + " listed twice by " + replica.url());
                }
            });
        }
        return byName;
    }

    private static JsonNode json(String body) throws IOException {
        return body == null ? null : JSON.readTree(body);
    }

    private static void awaitMembers(ReplicaProcess replica, int count) throws Exception {
        poll(replica.url() + " sees " + count + " members", () -> cluster(replica),
                c -> c != null && c.path("members").size() == count);
    }

    private static <T> T poll(String what, Waits.Probe<T, Exception> probe, java.util.function.Predicate<? super T> done)
            throws Exception {
        try {
            return Waits.poll(what, probe, done, FORMED, POLL);
        } catch (AssertionError e) {
            StringBuilder logs = new StringBuilder(e.getMessage());
            for (ReplicaProcess replica : replicas) {
                String log = replica.log();
                logs.append("\n--- ").append(replica.url()).append(":\n")
                        .append(log.substring(Math.max(0, log.length() - 3000)));
            }
            throw new AssertionError(logs.toString(), e);
        }
    }
}
