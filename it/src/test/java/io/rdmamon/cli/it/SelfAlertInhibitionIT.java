package io.rdmamon.cli.it;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.rdmamon.agent.sim.Scenario;
import io.rdmamon.agent.sim.SimulationSpec;
import io.rdmamon.cli.daemon.DemoFleet;
import io.rdmamon.cli.dashboard.SimulatedFleet;
import io.rdmamon.protocol.exposition.MetricSelection;
import io.rdmamon.protocol.testing.Slow;
import io.rdmamon.protocol.testing.Waits;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * No alert storm when rdmamon fails (issue 36, docs/deploy.md "Alertmanager"), proven with the real Debian Prometheus
 * and Alertmanager on loopback. A collector holds {@value #NODES} simulated agents (the demo's wiring); Prometheus
 * scrapes it with the shipped relabelling and the shipped rules (durations divided by {@value #SCALE}, as
 * ScenarioAlertsIT does) and sends to an Alertmanager loaded with deploy/alertmanager/alertmanager.yml, whose receiver
 * is a webhook the test serves (the pager) and whose {@code group_wait} is scaled like the rules' durations (30 s to
 * 5 s); grouping, intervals and inhibit rules are the shipped ones.
 *
 * <p>Every agent stops at once: each node raises RdmaAgentStale, and the replica raises RdmamonMassAgentDisconnect.
 * Alertmanager must hold every RdmaAgentStale suppressed, inhibited by the replica's alert, and page that one alert.
 * Then the collector stops: RdmamonCollectorDown is paged once. The pager never hears of a single node.
 *
 * <p>Two more collectors hold {@value #PCIE_NODES} nodes each, one of which has a PCIe link trained at x8
 * (RdmaPcieDegraded, a state its last sample keeps showing). The first one's degraded node's agent stops: its
 * RdmaAgentStale is paged, and its RdmaPcieDegraded is held behind it, while the other collector's degraded node's
 * alert stays active (the second inhibit rule). These collectors are scraped under their own {@code job}: the self
 * alerts read the shipped job's targets as one cluster's replicas, and these are lone collectors.
 */
@Slow
// the replica's test first: it needs no rule's full `for`, and the stale node's test then waits out only what is left
// of RdmaPcieDegraded's
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Order(4) // the longest ITs start first (docs/testing.md)
class SelfAlertInhibitionIT {
    private static final int SCALE = 10;
    /** Past the mass disconnect's floor of 5 stale nodes, as a replica's share of a fleet. */
    private static final int NODES = 8;
    private static final Path RULES = Path.of("..", "grafana", "rules");
    private static final Path SCRAPE = Path.of("..", "deploy", "prometheus", "rdmamon-scrape.yml");
    private static final Path ALERTMANAGER_CONFIG = Path.of("..", "deploy", "alertmanager", "alertmanager.yml");
    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final Duration POLL = Duration.ofMillis(500);
    private static final String MASS = "RdmamonMassAgentDisconnect";
    private static final String DOWN = "RdmamonCollectorDown";
    private static final String STALE = "RdmaAgentStale";
    private static final String PCIE = "RdmaPcieDegraded";
    /** Fewer than the mass disconnect's floor: one node stopping is a node's trouble, not its replica's. */
    private static final int PCIE_NODES = 2;
    private static final String PCIE_PREFIX = "pcie";
    /** RdmaPcieDegraded's `for: 10m` scaled, counted from the fleet's start, and the minute every wait here has. */
    private static final Duration PCIE_FIRING = Duration.ofSeconds(60).plus(WAIT);

    @TempDir
    static Path work;
    private static Path trees;
    private static SimulatedFleet fleet;
    /** Two fleets with one PCIe-degraded node each: the first's stops, the second's is the node that must not wait. */
    private static final List<SimulatedFleet> pcieFleets = new ArrayList<>();
    private static AlertWebhook pager;
    private static AlertmanagerServer alertmanager;
    private static PrometheusServer prometheus;

    @BeforeAll
    static void start() throws Exception {
        assumeTrue(Files.isExecutable(PrometheusServer.BINARY), "the Debian prometheus package is not installed");
        assumeTrue(Files.isExecutable(AlertmanagerServer.BINARY),
                "the Debian prometheus-alertmanager package is not installed");
        trees = Files.createTempDirectory(DemoFleet.treeParent(), "rdmamon-self-it-");
        fleet = SimulatedFleet.withOwnVertx(trees.resolve("healthy"), SimulationSpec.of(NODES, Scenario.HEALTHY), "",
                MetricSelection.parse("standard"));
        List<PrometheusServer.Target> targets = new ArrayList<>(List.of(new PrometheusServer.Target(fleet.address(),
                Map.of())));
        for (int i = 1; i <= 2; i++) {
            SimulatedFleet pcie = SimulatedFleet.withOwnVertx(trees.resolve(PCIE_PREFIX + i),
                    SimulationSpec.of(PCIE_NODES, Scenario.PCIE_X8), PCIE_PREFIX + i + "-",
                    MetricSelection.parse("standard"));
            pcieFleets.add(pcie);
            targets.add(new PrometheusServer.Target(pcie.address(), Map.of("job", "rdmamon-pcie")));
        }
        pager = new AlertWebhook();
        // the shipped group_wait scaled as the rules' durations are: the time a replica's alert has to reach
        // Alertmanager before a node's alert of a group is first sent keeps its shipped share of the rules' `for`
        // (1 s, shorter than that share, let a node's agent_stale page once in CI before the mass disconnect fired)
        String groupWait = new YAMLMapper().readTree(ALERTMANAGER_CONFIG.toFile()).at("/route/group_wait").asText();
        alertmanager = AlertmanagerServer.start(work, ALERTMANAGER_CONFIG, pager.url(),
                RuleDurations.scaled(RuleDurations.parse(groupWait), SCALE).toSeconds() + "s");
        JsonNode relabel = new YAMLMapper().readTree(SCRAPE.toFile()).at("/scrape_configs/0/metric_relabel_configs");
        prometheus = PrometheusServer.start(work, targets,
                SimulatedFleet.VIEWER_TOKEN, null, RuleDurations.scaledCopies(RULES, work, SCALE),
                new ObjectMapper().writeValueAsString(relabel), alertmanager.address());
        int agents = NODES + 2 * PCIE_NODES;
        Waits.poll("all " + agents + " agents up in Prometheus", () -> prometheus.query("sum(rdma_agent_up)"),
                r -> r.size() == 1 && r.get(0).path("value").get(1).asInt() == agents, WAIT, POLL);
    }

    @AfterAll
    static void stop() throws Exception {
        try {
            List<AutoCloseable> closeables = new ArrayList<>(Arrays.asList(prometheus, alertmanager, pager, fleet));
            closeables.addAll(pcieFleets);
            for (AutoCloseable closeable : closeables) {
                if (closeable != null) {
                    closeable.close();
                }
            }
        } finally {
            List<SimulatedFleet> fleets = new ArrayList<>(pcieFleets);
            fleets.add(fleet);
            for (SimulatedFleet simulated : fleets) {
                if (simulated != null) {
                    simulated.fabric().deleteTrees();
                }
            }
            if (trees != null) {
                try (var dirs = Files.list(trees)) {
                    for (Path dir : dirs.toList()) {
                        Files.deleteIfExists(dir);
                    }
                }
                Files.deleteIfExists(trees);
            }
        }
    }

    @Test
    @Order(1)
    void aFailingReplicaPagesOnceAndHoldsEveryNodesAlert() throws Exception {
        assertTrue(healthyFleets(pager.alerts()).isEmpty(), "a healthy fleet pages nothing: " + pager.notifications());
        for (String agent : fleet.agentNames()) {
            fleet.stopAgent(agent);
        }
        JsonNode held = Waits.poll("every node's " + STALE + " held behind " + MASS + ", and " + MASS + " paged",
                alertmanager::alerts, alerts -> healthyFleets(named(alerts, STALE)).size() == NODES
                        && healthyFleets(named(alerts, STALE)).stream().allMatch(a -> state(a).equals("suppressed"))
                        && named(alerts, MASS).size() == 1 && paged(MASS), WAIT, POLL);
        JsonNode mass = named(held, MASS).get(0);
        assertEquals("active", state(mass), "the replica's alert itself is not held: " + mass);
        String replica = mass.path("labels").path("replica").asText();
        assertEquals(fleet.address(), replica, "the self alert names the replica by its scrape instance");
        for (JsonNode stale : healthyFleets(named(held, STALE))) {
            assertEquals(replica, stale.path("labels").path("replica").asText(), "stale node on that replica: " + stale);
            assertEquals("[\"" + mass.path("fingerprint").asText() + "\"]",
                    stale.path("status").path("inhibitedBy").toString(), "held by the replica's alert: " + stale);
        }

        fleet.stopCollector();
        Waits.poll(DOWN + " paged", () -> paged(DOWN), Boolean::booleanValue, WAIT, POLL);

        List<String> pagedNames = new ArrayList<>();
        for (JsonNode alert : healthyFleets(pager.alerts())) {
            if (alert.path("status").asText().equals("firing")) {
                assertEquals("rdmamon", alert.path("labels").path("component").asText(),
                        "only rdmamon's own alerts reach the pager, no node's: " + alert);
                pagedNames.add(alert.path("labels").path("alertname").asText());
            }
        }
        assertEquals(List.of(MASS, DOWN), pagedNames, "one page for the mass disconnect, one for the collector down: "
                + pager.notifications());
        assertFalse(healthyFleets(pager.alerts()).stream().anyMatch(a -> alertname(a).equals(STALE)),
                "no node's alert ever paged: " + pager.notifications());
    }

    @Test
    @Order(2)
    void aStaleNodesPortAlertsAreHeldBehindItsAgentStaleAndNoOtherNodes() throws Exception {
        List<String> degraded = new ArrayList<>();
        for (int i = 0; i < pcieFleets.size(); i++) {
            String prefix = PCIE_PREFIX + (i + 1) + "-";
            pcieFleets.get(i).fabric().nodes().stream().filter(n -> n.fault() == Scenario.PCIE_X8)
                    .forEach(n -> degraded.add(prefix + n.name()));
        }
        assertEquals(pcieFleets.size(), degraded.size(), "one degraded node a fleet: " + degraded);
        Waits.poll(PCIE + " active on " + degraded, alertmanager::alerts, alerts -> degraded.stream()
                .allMatch(node -> onNode(alerts, PCIE, node).stream().anyMatch(a -> state(a).equals("active"))),
                PCIE_FIRING, POLL);
        String stopped = degraded.get(0);
        String other = degraded.get(1);
        pcieFleets.get(0).stopAgent(stopped);

        JsonNode held = Waits.poll(stopped + "'s " + PCIE + " held behind its " + STALE + ", which is paged",
                alertmanager::alerts, alerts -> onNode(alerts, STALE, stopped).size() == 1
                        && !onNode(alerts, PCIE, stopped).isEmpty()
                        && onNode(alerts, PCIE, stopped).stream().allMatch(a -> state(a).equals("suppressed"))
                        && pager.alerts().stream().anyMatch(a -> a.path("status").asText().equals("firing")
                        && alertname(a).equals(STALE) && a.path("labels").path("node").asText().equals(stopped)),
                WAIT, POLL);
        JsonNode stale = onNode(held, STALE, stopped).get(0);
        assertEquals("active", state(stale), "a lone stale node is not a mass disconnect: " + stale);
        for (JsonNode port : onNode(held, PCIE, stopped)) {
            assertEquals("[\"" + stale.path("fingerprint").asText() + "\"]",
                    port.path("status").path("inhibitedBy").toString(), "held by the node's own stale alert: " + port);
        }
        List<JsonNode> alive = onNode(held, PCIE, other);
        assertFalse(alive.isEmpty(), other + "'s alert is still there: " + held);
        alive.forEach(a -> assertEquals("active", state(a), "another node's alert is not held: " + a));
    }

    /** The alerts of the healthy fleet's replica: those of the PCIe fleets' collectors and nodes set aside. */
    private static List<JsonNode> healthyFleets(List<JsonNode> alerts) {
        List<String> others = pcieFleets.stream().map(SimulatedFleet::address).toList();
        return alerts.stream().filter(a -> !a.path("labels").path("node").asText().startsWith(PCIE_PREFIX)
                && !others.contains(a.path("labels").path("replica").asText())
                && !others.contains(a.path("labels").path("instance").asText())).toList();
    }

    private static List<JsonNode> onNode(JsonNode alerts, String alertname, String node) {
        return named(alerts, alertname).stream().filter(a -> a.path("labels").path("node").asText().equals(node))
                .toList();
    }

    private static String alertname(JsonNode alert) {
        return alert.path("labels").path("alertname").asText();
    }

    /** Whether the pager received a firing notification of {@code alertname}. */
    private static boolean paged(String alertname) {
        return pager.alerts().stream().anyMatch(a -> a.path("status").asText().equals("firing")
                && a.path("labels").path("alertname").asText().equals(alertname));
    }

    private static List<JsonNode> named(JsonNode alerts, String alertname) {
        Predicate<JsonNode> named = a -> a.path("labels").path("alertname").asText().equals(alertname);
        List<JsonNode> matching = new ArrayList<>();
        alerts.forEach(a -> {
            if (named.test(a)) {
                matching.add(a);
            }
        });
        return matching;
    }

    private static String state(JsonNode alert) {
        return alert.path("status").path("state").asText();
    }
}
