package io.rdmamon.cli.it;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rdmamon.collector.cluster.FleetCluster;
import io.rdmamon.agent.daemon.AgentDaemon;
import io.rdmamon.agent.daemon.AgentDaemonOptions;
import io.rdmamon.agent.stream.AgentStreamer;
import io.rdmamon.agent.stream.AgentStreamerOptions;
import io.rdmamon.agent.stream.RecordingSampler;
import io.rdmamon.protocol.testing.Slow;
import io.rdmamon.protocol.testing.Waits;
import io.vertx.core.Vertx;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.ResourceLock;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static io.rdmamon.protocol.testing.Waits.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Failover of a three-replica cluster (replicas as separate JVMs, docs/collector.md "Cluster") measured with 50
 * agents in this JVM (the agent's own streamer over a recording sampler, so that every sample taken is known):
 * <ul>
 *   <li>ten times, {@code kill -9} of the replica holding the most agents, then the time until every one of its
 *   agents streams to a survivor (connected there, a sample taken after the kill acknowledged): at most 5 s each; the
 *   survivors' histories of the moved nodes hold every sample from before the kill on, and once the killed replica
 *   is back each node is exported by exactly one replica;</li>
 *   <li>a rolling restart: each replica in turn stopped with SIGTERM and started again while the agents stream; no
 *   sample lost and no node missing from the replicas' {@code /metrics} for longer than one scrape interval.</li>
 * </ul>
 * The figures are printed (docs/performance.md "Cluster failover").
 */
@Slow
@ExtendWith(VertxExtension.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Order(2) // the longest ITs start first (docs/testing.md)
@ResourceLock(Slow.CORES)
class FailoverIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int AGENTS = 50;
    private static final int KILLS = 10;
    private static final Duration INTERVAL = Duration.ofSeconds(1);
    private static final Duration SCRAPE_INTERVAL = Duration.ofSeconds(1);
    private static final Duration SETTLE = Duration.ofSeconds(90);
    private static final Pattern EXPORTED = Pattern.compile("^rdma_agent_up\\{node=\"([^\"]+)\"}", Pattern.MULTILINE);

    /** An agent of this JVM: its node, the samples it took, its stream. */
    private record Agent(String node, RecordingSampler sampler, AgentStreamer streamer) {
        long acknowledged() {
            return streamer.stats().acknowledgedSeq();
        }

        /** When the sample of stream sequence {@code seq} was taken (the streamer numbers samples from 1). */
        long takenAt(long seq) {
            return sampler.timestamps().get((int) seq - 1);
        }
    }

    @TempDir
    static Path work;
    private static List<ReplicaProcess> replicas;
    private static final List<Agent> agents = new ArrayList<>();

    @BeforeAll
    static void start(Vertx vertx) throws Exception {
        assumeTrue(Files.isRegularFile(AgentProcess.JAR), "cli/target/rdmamon.jar is not built (run mvn verify)");
        replicas = ReplicaProcess.plan(work, 3);
        for (ReplicaProcess replica : replicas) {
            replica.start();
        }
        awaitWholeCluster();
        for (int i = 0; i < AGENTS; i++) {
            List<String> urls = new ArrayList<>();
            for (int k = 0; k < 3; k++) {
                urls.add(replicas.get((i + k) % 3).url());
            }
            String node = "fo-" + i;
            RecordingSampler sampler = new RecordingSampler();
            AgentDaemon daemon = new AgentDaemon(AgentDaemonOptions.of(node, INTERVAL, sampler)
                    .withStreamer(AgentStreamerOptions.of(String.join(",", urls), node).withInterval(INTERVAL)
                            .withBufferCapacity(600)));
            await(vertx.deployVerticle(daemon));
            agents.add(new Agent(node, sampler, daemon.streamer()));
        }
        poll("every agent streaming", () -> agents.stream().filter(a -> a.streamer().stats().connected()
                && a.acknowledged() > 2).count(), streaming -> streaming == AGENTS);
    }

    @AfterAll
    static void stop() throws Exception {
        if (replicas != null) {
            for (ReplicaProcess replica : replicas) {
                replica.close();
            }
        }
    }

    @Test
    @Order(1)
    /**
     * Correctness is asserted (every agent of the killed replica streams to a survivor within {@link #SETTLE}, no
     * sample lost, each node exported once); the time is measured and printed, not asserted: it is a benchmark on a
     * shared machine (docs/performance.md "Cluster failover" has the figures and the goal of 5 s).
     */
    void killingAReplicaMovesAllItsAgentsToSurvivorsWithoutLossTenTimesOver() throws Exception {
        List<Long> millis = new ArrayList<>();
        for (int run = 0; run < KILLS; run++) {
            ReplicaProcess victim = replicas.stream().max(Comparator.comparingLong(r -> holdersOf(r).size())).orElseThrow();
            List<Agent> moving = holdersOf(victim);
            Map<Agent, Long> acked = acknowledged(moving);
            long killed = System.nanoTime();
            victim.kill();
            awaitStreamingElsewhere(victim, acked);
            long took = (System.nanoTime() - killed) / 1_000_000;
            millis.add(took);
            System.out.printf("failover run %d: %d agents of the killed replica streaming to survivors after %d ms%n",
                    run + 1, moving.size(), took);
            assertReplayedWithoutGap(acked);
            victim.start();
            awaitWholeCluster();
            awaitEachNodeExportedOnce();
            awaitMergeSettled();
        }
        List<Long> sorted = millis.stream().sorted().toList();
        System.out.printf("failover after kill -9, %d runs of %d agents: min %d ms, median %d ms, max %d ms (load"
                        + " average %s)%n", KILLS, AGENTS, sorted.get(0), (sorted.get(KILLS / 2 - 1) + sorted.get(KILLS / 2)) / 2,
                sorted.get(KILLS - 1), Files.readString(Path.of("/proc/loadavg")).trim());
    }

    @Test
    @Order(2)
    void aRollingRestartLosesNoSampleAndNoNodeLeavesTheMetricsForLongerThanOneScrape() throws Exception {
        ScrapeWatch watch = new ScrapeWatch();
        Thread scraper = new Thread(watch, "scrape-watch");
        scraper.start();
        try {
            for (ReplicaProcess replica : replicas) {
                Map<Agent, Long> acked = acknowledged(holdersOf(replica));
                replica.terminate();
                awaitStreamingElsewhere(replica, acked);
                assertReplayedWithoutGap(acked);
                replica.start();
                awaitWholeCluster();
            }
        } finally {
            scraper.interrupt();
            scraper.join();
        }
        for (Agent agent : agents) {
            assertEquals(0, agent.streamer().stats().dropped(), agent.node() + " dropped samples");
        }
        System.out.printf("rolling restart: %d scrapes; longest absence of a node from every replica's /metrics: %d"
                + " scrape(s)%n", watch.rounds, watch.longestAbsence());
        assertTrue(watch.rounds > 10, "the scraper ran: " + watch.rounds + " rounds");
        assertTrue(watch.longestAbsence() <= 1, "nodes missing from /metrics for more than one scrape interval: "
                + watch.absences);
    }

    /**
     * Scrapes every replica's {@code /metrics} once a {@link #SCRAPE_INTERVAL} and counts, for each node, the longest
     * run of consecutive rounds in which no replica exported it.
     */
    private static final class ScrapeWatch implements Runnable {
        private final Map<String, Integer> missing = new HashMap<>();
        private final Map<String, Integer> absences = new ConcurrentHashMap<>();
        private volatile int rounds;

        @Override
        public void run() {
            try {
                while (!Thread.currentThread().isInterrupted()) {
                    Set<String> seen = new HashSet<>();
                    for (ReplicaProcess replica : replicas) {
                        seen.addAll(exported(replica));
                    }
                    for (Agent agent : agents) {
                        int gap = seen.contains(agent.node()) ? 0 : missing.getOrDefault(agent.node(), 0) + 1;
                        missing.put(agent.node(), gap);
                        absences.merge(agent.node(), gap, Math::max);
                    }
                    rounds++;
                    Thread.sleep(SCRAPE_INTERVAL.toMillis());
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        int longestAbsence() {
            return absences.values().stream().max(Integer::compare).orElse(0);
        }
    }

    /** The agents streaming to {@code replica} now. */
    private static List<Agent> holdersOf(ReplicaProcess replica) {
        String port = ":" + replica.httpPort + "/";
        return agents.stream().filter(a -> a.streamer().stats().connected()
                && a.streamer().stats().endpoint().contains(port)).toList();
    }

    private static Map<Agent, Long> acknowledged(List<Agent> moving) {
        Map<Agent, Long> acked = new HashMap<>();
        moving.forEach(agent -> acked.put(agent, agent.acknowledged()));
        return acked;
    }

    /** Every agent of {@code acked} connected to another replica, which acknowledged a sample past its old one. */
    private static void awaitStreamingElsewhere(ReplicaProcess gone, Map<Agent, Long> acked) throws Exception {
        String port = ":" + gone.httpPort + "/";
        try {
            Waits.poll("every agent of " + gone.url() + " streaming to another replica", () -> acked.entrySet().stream()
                    .filter(e -> !e.getKey().streamer().stats().connected()
                            || e.getKey().streamer().stats().endpoint().contains(port)
                            || e.getKey().acknowledged() <= e.getValue()).map(e -> e.getKey().node()).toList(),
                    List::isEmpty, SETTLE, Duration.ofMillis(20));
        } catch (AssertionError e) {
            throw new AssertionError(e.getMessage() + ReplicaProcess.logTails(replicas), e);
        }
    }

    /**
     * The new replica's history of each moved node holds every sample the agent took from the last one the old
     * replica acknowledged on (the agent replays what was not acknowledged and sends its last acknowledged ones again).
     */
    private static void assertReplayedWithoutGap(Map<Agent, Long> acked) throws Exception {
        for (Map.Entry<Agent, Long> entry : acked.entrySet()) {
            Agent agent = entry.getKey();
            long lastAcked = agent.takenAt(entry.getValue());
            List<Long> points = poll("history of " + agent.node() + " on its replica reaches past the move",
                    () -> points(agent), p -> p.size() >= 2 && p.get(p.size() - 1) > lastAcked);
            assertTrue(points.get(0) <= lastAcked, agent.node() + ": the history on its replica starts at "
                    + points.get(0) + ", after " + lastAcked + ", the last sample the old replica acknowledged");
            // a copy: the sampler goes on appending while the run is compared (a view of it threw
            // ConcurrentModificationException once)
            List<Long> taken = List.copyOf(agent.sampler().timestamps());
            int from = taken.indexOf(points.get(0));
            assertEquals(taken.subList(from, from + points.size()), points, agent.node() + ": a gapless run of samples");
        }
    }

    /** The history of the agent's node on the replica it streams to now (empty while it streams to none). */
    private static List<Long> points(Agent agent) throws IOException {
        List<Long> timestamps = new ArrayList<>();
        ReplicaProcess holder = replicas.stream().filter(r -> holdersOf(r).contains(agent)).findFirst().orElse(null);
        String body = holder == null ? null : holder.get("/api/nodes/" + agent.node() + "/history");
        if (body != null) {
            JsonNode ports = JSON.readTree(body).path("ports");
            if (!ports.isEmpty()) {
                ports.get(0).path("points").forEach(p -> timestamps.add(p.path("timestampMillis").asLong()));
            }
        }
        return timestamps;
    }

    /** Every replica answers and sees exactly the three running replicas (a killed one's old id dropped). */
    private static void awaitWholeCluster() throws Exception {
        poll("every replica sees the three running replicas", () -> {
            Set<String> ids = new HashSet<>();
            for (ReplicaProcess replica : replicas) {
                JsonNode cluster = replica.cluster();
                if (cluster == null) {
                    return false;
                }
                ids.add(cluster.path("self").asText());
            }
            for (ReplicaProcess replica : replicas) {
                if (!replica.memberIds().equals(ids)) {
                    return false;
                }
            }
            return true;
        }, whole -> whole);
    }

    /**
     * Every replica's last merge has settled ({@link FleetCluster#MERGE_SETTLED}, 5 s after the restarted replica
     * joined). A replica killed inside that window can leave directory entries naming the wrong replica (seen once in
     * CI: the survivor's post-merge re-assertion dropped and re-claimed nodes from a stale merged directory, and eight
     * nodes' API answers were forwarded to the wrong replica until it left): a known defect, not what this test
     * measures, so the next kill waits for it to pass.
     */
    private static void awaitMergeSettled() throws Exception {
        poll("every replica's last merge settled", () -> {
            for (ReplicaProcess replica : replicas) {
                String log = replica.log();
                if (log.lastIndexOf("partitions merged") > log.lastIndexOf(FleetCluster.MERGE_SETTLED)) {
                    return false;
                }
            }
            return true;
        }, settled -> settled);
    }

    private static void awaitEachNodeExportedOnce() throws Exception {
        poll("each node exported by exactly one replica", () -> {
            Map<String, Integer> exported = new HashMap<>();
            for (ReplicaProcess replica : replicas) {
                exported(replica).forEach(node -> exported.merge(node, 1, Integer::sum));
            }
            return exported;
        }, exported -> exported.size() == AGENTS && exported.values().stream().allMatch(n -> n == 1));
    }

    private static Set<String> exported(ReplicaProcess replica) {
        Set<String> nodes = new HashSet<>();
        String metrics = replica.get("/metrics");
        if (metrics != null) {
            Matcher m = EXPORTED.matcher(metrics);
            while (m.find()) {
                nodes.add(m.group(1));
            }
        }
        return nodes;
    }

    private static <T> T poll(String what, Waits.Probe<T, Exception> probe, java.util.function.Predicate<? super T> done)
            throws Exception {
        try {
            return Waits.poll(what, probe, done, SETTLE, Duration.ofMillis(250));
        } catch (AssertionError e) {
            throw new AssertionError(e.getMessage() + ReplicaProcess.logTails(replicas), e);
        }
    }
}
