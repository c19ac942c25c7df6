package io.rdmamon.cli.it;

import io.rdmamon.protocol.testing.Slow;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.rdmamon.agent.sim.FabricSimulator;
import io.rdmamon.agent.sim.Scenario;
import io.rdmamon.agent.sim.SimulatedNode;
import io.rdmamon.agent.sim.SimulationSpec;
import io.rdmamon.protocol.testing.Waits;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The real Debian Prometheus scraping three collector replicas (separate JVMs, one cluster) with the shipped
 * scrape relabelling (deploy/prometheus/rdmamon-scrape.yml) and the shipped recording and alerting rules (their
 * durations divided by {@value #SCALE}, as ScenarioAlertsIT does), over a healthy simulated fabric of three nodes
 * whose agents (separate JVMs) each know every replica. The replica holding one node is killed ({@code kill -9}):
 * the node's series keep one identity across the move, {@code rate()} goes on without a reset or a hole, no node
 * is ever exported twice, and no alert fires at any moment of the run.
 */
@Slow
@Order(6) // the longest ITs start first (docs/testing.md)
class ClusterPrometheusIT {
    private static final int SCALE = 10;
    private static final Path RULES = Path.of("..", "grafana", "rules");
    private static final Path SCRAPE = Path.of("..", "deploy", "prometheus", "rdmamon-scrape.yml");
    private static final Duration WAIT = Duration.ofSeconds(90);
    private static final Duration POLL = Duration.ofMillis(500);
    private static final String RX = "rdma_port_data_received_bytes_total";

    @TempDir
    static Path work;
    private static FabricSimulator fabric;
    private static List<ReplicaProcess> replicas;
    private static final List<AgentProcess> agents = new ArrayList<>();
    private static PrometheusServer prometheus;
    private static List<String> nodes;

    @BeforeAll
    static void start() throws Exception {
        assumeTrue(Files.isExecutable(PrometheusServer.BINARY), "the Debian prometheus package is not installed");
        assumeTrue(Files.isRegularFile(AgentProcess.JAR), "cli/target/rdmamon.jar is not built (run mvn verify)");
        fabric = FabricSimulator.create(work.resolve("fabric"), SimulationSpec.of(3, Scenario.HEALTHY));
        fabric.startClock(Duration.ofSeconds(1), e -> { });
        nodes = fabric.nodes().stream().map(SimulatedNode::name).toList();
        replicas = ReplicaProcess.plan(work, 3);
        for (ReplicaProcess replica : replicas) {
            replica.start();
        }
        for (ReplicaProcess replica : replicas) {
            Waits.poll(replica.url() + " sees 3 members", () -> replica.get("/api/cluster"),
                    body -> body != null && body.split("\"joinedMillis\"").length - 1 == 3, WAIT, POLL);
        }
        for (int i = 0; i < nodes.size(); i++) {
            List<String> urls = new ArrayList<>();
            for (int k = 0; k < 3; k++) {
                urls.add(replicas.get((i + k) % 3).url());
            }
            agents.add(AgentProcess.start(work, nodes.get(i), fabric.nodes().get(i).hostRoot(), String.join(",", urls)));
        }
        List<PrometheusServer.Target> targets = replicas.stream()
                .map(r -> new PrometheusServer.Target("127.0.0.1:" + r.httpPort, Map.of())).toList();
        JsonNode shipped = new YAMLMapper().readTree(SCRAPE.toFile()).at("/scrape_configs/0/metric_relabel_configs");
        assertTrue(shipped.isArray() && !shipped.isEmpty(), "the shipped scrape config relabels the rdma_* series");
        prometheus = PrometheusServer.start(work, targets, null, null, RuleDurations.scaledCopies(RULES, work, SCALE),
                new ObjectMapper().writeValueAsString(shipped));
    }

    @AfterAll
    static void stop() throws Exception {
        if (prometheus != null) {
            prometheus.close();
        }
        for (AgentProcess agent : agents) {
            agent.close();
        }
        if (replicas != null) {
            for (ReplicaProcess replica : replicas) {
                replica.close();
            }
        }
        if (fabric != null) {
            fabric.close();
        }
    }

    @Test
    void rateAndTheAlertsRideThroughTheKillOfAReplica() throws Exception {
        String moving = nodes.get(0); // held by replica 0, which is killed; its next URL is replica 1
        String rate = "sum by (node) (rate(" + RX + "{node=\"" + moving + "\"}[12s]))";
        JsonNode before = poll("a steady receive rate of " + moving + " through Prometheus", () -> prometheus.query(rate),
                r -> r.size() == 1 && value(r) > 0);
        Thread.sleep(20_000); // a baseline of rates and rule evaluations before the failover
        // the simulated traffic varies by itself: the bound is its own peak before the failover
        double peakBefore = value(prometheus.query("max_over_time(" + rate + "[20s:1s])"));
        assertTrue(peakBefore > 0, "peak before " + peakBefore + " (first " + value(before) + ")");

        replicas.get(0).kill();
        long killed = System.currentTimeMillis();
        poll(moving + " exported again, by another replica", () -> prometheus.query(
                        "count by (node) (rdma_agent_up{node=\"" + moving + "\"} == 1)"),
                r -> r.size() == 1 && value(r) == 1);
        Thread.sleep(Math.max(0, killed + 40_000 - System.currentTimeMillis())); // windows and for: past the move

        long seconds = (System.currentTimeMillis() - killed) / 1000 + 5;
        String window = "[" + seconds + "s]";
        String steps = "[" + seconds + "s:1s]";
        assertEquals(0, value(prometheus.query("max(resets(" + RX + "{node=\"" + moving + "\"}" + window + "))")),
                "the counter never went back: one series across the replicas");
        assertEquals(seconds, value(prometheus.query("count_over_time(" + rate + steps + ")")), 1.0,
                "rate() has a value at every second of the failover: no hole");
        double peakDuring = value(prometheus.query("max_over_time(" + rate + steps + ")"));
        assertTrue(peakDuring <= peakBefore * 1.5, "rate() through the failover peaked at " + peakDuring
                + ", the traffic's own peak before was " + peakBefore + ": a double count or a reset");
        assertEquals(1, value(prometheus.query("max_over_time(max(count by (node, device, port) (" + RX + "))"
                + steps + ")")), "no port exported twice at any moment");
        // no alert fires at any moment. One may be pending for a moment: in about half the runs RdmaPfcNotEnabled
        // goes pending for the moved node's ports for one evaluation (its lossless side is missing for a moment
        // after the move; not yet understood), which its `for:` absorbs. Printed with the series it reads.
        String since = "[" + ((System.currentTimeMillis() - killed) / 1000 + 40) + "s]";
        // rdmamon's own alerts (component="rdmamon": collector down, replica missing) may rightly fire here, since a
        // replica is down for a while; no alert about the fleet may.
        JsonNode fired = prometheus.query("max_over_time(ALERTS{alertstate=\"firing\",component!=\"rdmamon\"}"
                + since + ")");
        assertEquals(0, fired.size(), "no fleet alert fired at any moment: " + fired);
        JsonNode pending = prometheus.query("max_over_time(ALERTS{alertstate=\"pending\"}" + since + ")");
        if (!pending.isEmpty()) {
            System.out.println("ClusterPrometheusIT: pending for a moment during the failover: " + pending
                    + "; rdma_port_info samples: " + prometheus.query("count_over_time(rdma_port_info{node=\""
                    + moving + "\"}" + since + ")") + "; recorded lossless priorities: " + prometheus.query(
                    "count_over_time(rdma:port_lossless_priority:info{node=\"" + moving + "\"}" + since + ")"));
        }
        JsonNode now = prometheus.alerts();
        long fleetFiring = 0;
        for (JsonNode alert : now) {
            if (alert.path("state").asText().equals("firing")
                    && !alert.path("labels").path("component").asText().equals("rdmamon")) {
                fleetFiring++;
            }
        }
        assertEquals(0, fleetFiring, "no fleet alert firing (rdmamon's own may be, a replica was down): " + now);
    }

    private static double value(JsonNode result) {
        return result.isEmpty() ? Double.NaN : result.get(0).path("value").get(1).asDouble();
    }

    private static JsonNode poll(String what, Waits.Probe<JsonNode, Exception> probe,
                                 java.util.function.Predicate<JsonNode> done) throws Exception {
        return Waits.poll(what, probe, done, WAIT, POLL);
    }
}
