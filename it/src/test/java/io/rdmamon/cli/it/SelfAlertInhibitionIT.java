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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
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
 */
@Slow
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

    @TempDir
    static Path work;
    private static Path trees;
    private static SimulatedFleet fleet;
    private static AlertWebhook pager;
    private static AlertmanagerServer alertmanager;
    private static PrometheusServer prometheus;

    @BeforeAll
    static void start() throws Exception {
        assumeTrue(Files.isExecutable(PrometheusServer.BINARY), "the Debian prometheus package is not installed");
        assumeTrue(Files.isExecutable(AlertmanagerServer.BINARY),
                "the Debian prometheus-alertmanager package is not installed");
        trees = Files.createTempDirectory(DemoFleet.treeParent(), "rdmamon-self-it-");
        fleet = SimulatedFleet.withOwnVertx(trees, SimulationSpec.of(NODES, Scenario.HEALTHY), "",
                MetricSelection.parse("standard"));
        pager = new AlertWebhook();
        // the shipped group_wait scaled as the rules' durations are: the time a replica's alert has to reach
        // Alertmanager before a node's alert of a group is first sent keeps its shipped share of the rules' `for`
        // (1 s, shorter than that share, let a node's agent_stale page once in CI before the mass disconnect fired)
        String groupWait = new YAMLMapper().readTree(ALERTMANAGER_CONFIG.toFile()).at("/route/group_wait").asText();
        alertmanager = AlertmanagerServer.start(work, ALERTMANAGER_CONFIG, pager.url(),
                RuleDurations.scaled(RuleDurations.parse(groupWait), SCALE).toSeconds() + "s");
        JsonNode relabel = new YAMLMapper().readTree(SCRAPE.toFile()).at("/scrape_configs/0/metric_relabel_configs");
        prometheus = PrometheusServer.start(work, List.of(new PrometheusServer.Target(fleet.address(), Map.of())),
                SimulatedFleet.VIEWER_TOKEN, null, RuleDurations.scaledCopies(RULES, work, SCALE),
                new ObjectMapper().writeValueAsString(relabel), alertmanager.address());
        Waits.poll("all " + NODES + " agents up in Prometheus", () -> prometheus.query("sum(rdma_agent_up)"),
                r -> r.size() == 1 && r.get(0).path("value").get(1).asInt() == NODES, WAIT, POLL);
    }

    @AfterAll
    static void stop() throws Exception {
        try {
            for (AutoCloseable closeable : new AutoCloseable[]{prometheus, alertmanager, pager, fleet}) {
                if (closeable != null) {
                    closeable.close();
                }
            }
        } finally {
            if (fleet != null) {
                fleet.fabric().deleteTrees();
            }
            if (trees != null) {
                Files.deleteIfExists(trees);
            }
        }
    }

    @Test
    void aFailingReplicaPagesOnceAndHoldsEveryNodesAlert() throws Exception {
        assertTrue(pager.alerts().isEmpty(), "a healthy fleet pages nothing: " + pager.notifications());
        for (String agent : fleet.agentNames()) {
            fleet.stopAgent(agent);
        }
        JsonNode held = Waits.poll("every node's " + STALE + " held behind " + MASS + ", and " + MASS + " paged",
                alertmanager::alerts, alerts -> named(alerts, STALE).size() == NODES
                        && named(alerts, STALE).stream().allMatch(a -> state(a).equals("suppressed"))
                        && named(alerts, MASS).size() == 1 && paged(MASS), WAIT, POLL);
        JsonNode mass = named(held, MASS).get(0);
        assertEquals("active", state(mass), "the replica's alert itself is not held: " + mass);
        String replica = mass.path("labels").path("replica").asText();
        assertEquals(fleet.address(), replica, "the self alert names the replica by its scrape instance");
        for (JsonNode stale : named(held, STALE)) {
            assertEquals(replica, stale.path("labels").path("replica").asText(), "stale node on that replica: " + stale);
            assertEquals("[\"" + mass.path("fingerprint").asText() + "\"]",
                    stale.path("status").path("inhibitedBy").toString(), "held by the replica's alert: " + stale);
        }

        fleet.stopCollector();
        Waits.poll(DOWN + " paged", () -> paged(DOWN), Boolean::booleanValue, WAIT, POLL);

        List<String> pagedNames = new ArrayList<>();
        for (JsonNode alert : pager.alerts()) {
            if (alert.path("status").asText().equals("firing")) {
                assertEquals("rdmamon", alert.path("labels").path("component").asText(),
                        "only rdmamon's own alerts reach the pager, no node's: " + alert);
                pagedNames.add(alert.path("labels").path("alertname").asText());
            }
        }
        assertEquals(List.of(MASS, DOWN), pagedNames, "one page for the mass disconnect, one for the collector down: "
                + pager.notifications());
        assertFalse(pager.notifications().toString().contains(STALE), "no node's alert ever paged");
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
