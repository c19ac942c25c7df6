package io.rdmamon.cli.it;

import io.rdmamon.protocol.testing.Slow;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rdmamon.agent.sim.NodeKind;
import io.rdmamon.agent.sim.Scenario;
import io.rdmamon.agent.sim.SimulatedNode;
import io.rdmamon.agent.sim.SimulationSpec;
import io.rdmamon.cli.daemon.DemoFleet;
import io.rdmamon.cli.dashboard.SimulatedFleet;
import io.rdmamon.protocol.exposition.MetricSelection;
import io.rdmamon.protocol.testing.Waits;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Every simulator scenario at once, each through the demo's own wiring (a collector, the fabric
 * simulator and one agent streamer per node), scraped by one real Debian {@code prometheus} with the
 * repository's recording and alerting rules loaded (a {@code scenario} target label per collector).
 *
 * <p>It proves, through Prometheus's HTTP API: each scenario's alerts (docs/simulator.md) reach
 * {@code firing} on the node that carries the fault, nothing is even pending for {@code healthy},
 * {@code RdmaAgentStale} fires for an agent that was stopped, and every query of every Grafana
 * dashboard panel returns data once all scenarios have run and one probe (through the REST API and
 * the demo's simulated perftest) has finished in the healthy fleet.
 *
 * <p>Time: the rules wait up to {@code for: 10m} over {@code [2m]} windows, so by default Prometheus
 * loads a copy whose durations are divided by {@value #SCALE} ({@link RuleDurations}: {@code for: 10m}
 * becomes 60 s, {@code [2m]} 12 s, {@code [15m]} 90 s; expressions, thresholds and labels unchanged)
 * and the run takes about two minutes. {@code -Drdmamon.it.realtime=true} loads the unmodified files
 * and waits in real time (about 15 minutes).
 *
 * <p>Profiles: the collectors render the {@code standard} profile of {@code --metrics} unless
 * {@code -Drdmamon.it.metrics=SPEC} says otherwise (e.g. {@code full}). Standard is the profile that must keep every
 * shipped alert and panel working; {@code full} only adds families no shipped query names (StandardProfileTest), so
 * passing under {@code standard} covers {@code full} too — a query's result depends on the series of the families
 * it names alone.
 */
@Slow
@Order(7) // the longest ITs start first (docs/testing.md)
class ScenarioAlertsIT {
    /** Divides every rule duration unless {@code rdmamon.it.realtime} is set. */
    static final int SCALE = 10;
    private static final boolean REALTIME = Boolean.getBoolean("rdmamon.it.realtime");
    /** The collectors' {@code --metrics}. */
    private static final MetricSelection METRICS = MetricSelection.parse(System.getProperty("rdmamon.it.metrics", "standard"));
    private static final Path RULES = Path.of("..", "grafana", "rules");
    private static final Path DASHBOARDS = Path.of("..", "grafana", "dashboards");
    /**
     * The "rdmamon health" dashboard reads the agents' own {@code --listen} series and the replicas' JVMs, which this
     * IT does not run; the Grafana checks hold its queries to families the processes serve (docs/metrics.md).
     */
    private static final String HEALTH_DASHBOARD = "rdmamon-health.json";

    /**
     * The alerts each fault raises, with their {@code rule} label: docs/simulator.md's rule ids.
     * link-degraded's {@code link_down} is the diagnosis engine's: the port is down 1 s in 5 and
     * RdmaLinkDown rightly waits 2 minutes of DOWN, so RdmaLinkFlapping and RdmaLinkDegraded speak.
     */
    private static final Map<Scenario, Map<String, String>> ALERTS_BY_FAULT = new EnumMap<>(Map.ofEntries(
            Map.entry(Scenario.HEALTHY, Map.of()),
            // the timed scenarios (docs/simulator.md): a swapped module raises nothing; a reboot's QoS loss may raise
            // pfc-lost's alerts by the end of the run (TOLERATED_BY_FAULT), depending on how long the run takes
            Map.entry(Scenario.MODULE_SWAP, Map.of()), Map.entry(Scenario.REBOOT_QOS, Map.of()),
            // leaf-01's nodes retransmit; the pingmesh's path_loss is not a counter alert
            // the pingmesh's verdict names leaf-01 (its uplink) and raises path_loss on its nodes' ports, and on no
            // other leaf's; about 10 % of the round trips wait out a retransmission, above RdmaPathLossCritical's 5 %
            Map.entry(Scenario.TOR_UPLINK_LOSS, Map.of("RdmaTransportLoss", "transport_loss", "RdmaPathLoss",
                    "path_loss", "RdmaPathLossCritical", "path_loss")),
            Map.entry(Scenario.WRONG_PRIORITY, Map.of("RdmaRoceTrafficOutsideLosslessPriority",
                    "roce_traffic_outside_lossless_priority")),
            Map.entry(Scenario.PFC_STORM, Map.of("RdmaPfcPauseStorm", "pfc_pause_storm", "RdmaTransportLoss",
                    "transport_loss")),
            Map.entry(Scenario.ECN_OFF, Map.of("RdmaEcnNotEngaged", "ecn_not_engaged")),
            Map.entry(Scenario.LINK_DEGRADED, Map.of("RdmaLinkDegraded", "link_degraded", "RdmaLinkFlapping",
                    "link_degraded", "RdmaTransportLoss", "transport_loss", "RdmaCarrierFlapping", "link_flapping",
                    "RdmaCarrierFlappingAllDay", "link_flapping")),
            Map.entry(Scenario.DIRTY_OPTIC, Map.of("RdmaModulePowerOutOfRange", "module_power_out_of_range",
                    "RdmaModulePowerAlarm", "module_power_out_of_range", "RdmaFecBerHigh", "fec_ber_high")),
            Map.entry(Scenario.PCIE_X8, Map.of("RdmaPcieDegraded", "pcie_degraded")),
            // the simulator's nccl.conf pins NCCL_IB_GID_INDEX to the GID the fault removes
            Map.entry(Scenario.GID_MISSING, Map.of("RdmaGidNoRocev2", "gid_no_rocev2", "RdmaNcclConfMismatch",
                    "nccl_conf_mismatch")),
            Map.entry(Scenario.ERDMA_RATELIMIT, Map.of("RdmaErdmaRateLimited", "erdma_rate_limited")),
            // the QoS scenarios: their counters, their configuration against the fleet's, and the nccl.conf whose
            // NCCL_IB_TC no longer reaches a PFC priority
            Map.entry(Scenario.PFC_LOST, Map.of("RdmaPfcNotEnabled", "pfc_not_enabled", "RdmaQosTrustNotDscp",
                    "qos_trust_not_dscp", "RdmaQosConfigDrift", "qos_config_drift")),
            Map.entry(Scenario.TRUST_PCP, Map.of("RdmaRoceTrafficOutsideLosslessPriority",
                    "roce_traffic_outside_lossless_priority", "RdmaQosTrustNotDscp", "qos_trust_not_dscp",
                    "RdmaNcclConfMismatch", "nccl_conf_mismatch", "RdmaQosConfigDrift", "qos_config_drift")),
            Map.entry(Scenario.DSCP_MAP_WRONG, Map.of("RdmaRoceTrafficOutsideLosslessPriority",
                    "roce_traffic_outside_lossless_priority", "RdmaRoceDscpNotLossless", "roce_dscp_not_lossless",
                    "RdmaNcclConfMismatch", "nccl_conf_mismatch", "RdmaQosConfigDrift", "qos_config_drift")),
            // the GPU topology scenarios (docs/topology.md)
            Map.entry(Scenario.GPU_FAR_NIC, Map.of("RdmaGpudirectNotReady", "gpudirect_not_ready",
                    "RdmaGpuNicCrossNuma", "gpu_nic_cross_numa")),
            Map.entry(Scenario.ACS_REDIRECT, Map.of("RdmaPcieAcsRedirect", "pcie_acs_redirect",
                    "RdmaGpudirectNotReady", "gpudirect_not_ready")),
            Map.entry(Scenario.NO_PEERMEM, Map.of("RdmaGpudirectNotReady", "gpudirect_not_ready")),
            // the last NIC's firmware dies 5 s in: its devlink fw_fatal reporter in error (docs/simulator.md)
            Map.entry(Scenario.FIRMWARE_FATAL, Map.of("RdmaNicFirmwareFatalReporter", "nic_firmware_fatal",
                    "RdmaNicHealthReporterError", "nic_health_reporter_error"))));
    /**
     * Alerts a fault explains but need not raise in this test, with their {@code rule} label. dirty-optic's lane falls
     * from the agent's start and reaches its floor in about 12 s; RdmaModuleRxPowerDrift compares the lane with its
     * best (scaled) 30-second mean, so it fires only when Prometheus's first scrapes of that node landed early in the
     * fall — which depends on how fast the fleets started (CI saw both). link-degraded's port is down 1 s in 5, and
     * RdmaLinkDown waits (a scaled) 12 s of DOWN: pending in every run, it fires when a loaded machine stalls the
     * sampling of that port while it is down.
     */
    private static final Map<Scenario, Map<String, String>> TOLERATED_BY_FAULT = new EnumMap<>(Map.of(
            Scenario.DIRTY_OPTIC, Map.of("RdmaModuleRxPowerDrift", "module_power_out_of_range"),
            Scenario.LINK_DEGRADED, Map.of("RdmaLinkDown", "link_down"),
            // the reboot takes each port down and up again: link_downed rises, so RdmaLinkFlapping (rule label
            // link_degraded, as for link-degraded's flaps) may fire
            Scenario.REBOOT_QOS, Map.of("RdmaPfcNotEnabled", "pfc_not_enabled", "RdmaQosTrustNotDscp",
                    "qos_trust_not_dscp", "RdmaQosConfigDrift", "qos_config_drift", "RdmaLinkFlapping", "link_degraded"),
            // the firmware's kernel lines: a new rdma_kernel_events_total series fires after the rule's 1m, which a run
            // may not wait for
            Scenario.FIRMWARE_FATAL, Map.of("RdmaNicFirmwareFatal", "nic_firmware_fatal")));
    /** The scenario one of whose agents is stopped, so that RdmaAgentStale has something to say. */
    private static final Scenario STALE_IN = Scenario.GID_MISSING;

    @TempDir
    static Path work;

    private static Path trees;
    private static final Map<Scenario, SimulatedFleet> fleets = new EnumMap<>(Scenario.class);
    private static PrometheusServer prometheus;
    private static String staleNode;
    /** The alerts when every expectation was met or the deadline passed. */
    private static JsonNode alerts;
    /** Node name to its scenario, read back from the {@code scenario} target label. */
    private static Map<String, String> scenarioOfNode = Map.of();
    private static Duration waited;

    /** An alert that must fire with its {@code rule} label on {@code node}, a node of {@code scenario}. */
    record Expected(Scenario scenario, String node, String alertname, String rule) {
        boolean metBy(JsonNode alert) {
            return alert.path("state").asText().equals("firing") && explains(alert)
                    && alert.path("labels").path("rule").asText().equals(rule);
        }

        /** The alert, in any state, is this one (same name, node and scenario label). */
        boolean explains(JsonNode alert) {
            JsonNode labels = alert.path("labels");
            return labels.path("alertname").asText().equals(alertname) && labels.path("node").asText().equals(node)
                    && scenario.cliName().equals(scenarioOfNode.get(node));
        }

        @Override
        public String toString() {
            return alertname + "{rule=" + rule + "} on " + node;
        }
    }

    @BeforeAll
    static void runEveryScenario() throws Exception {
        assumeTrue(Files.isExecutable(PrometheusServer.BINARY), "the Debian prometheus package is not installed");
        long started = System.nanoTime();
        trees = Files.createTempDirectory(DemoFleet.treeParent(), "rdmamon-scenario-it-");
        List<PrometheusServer.Target> targets = new ArrayList<>();
        for (Scenario scenario : Scenario.values()) {
            // one Vert.x per fleet: the fleets' lone collectors run side by side (SimulatedFleet.withOwnVertx)
            SimulatedFleet fleet = SimulatedFleet.withOwnVertx(trees.resolve(scenario.cliName()), new SimulationSpec(
                    nodeCount(scenario), scenario, SimulationSpec.DEFAULT_SEED, losslessPriority(scenario)),
                    scenario.cliName() + "-", METRICS);
            fleets.put(scenario, fleet);
            targets.add(new PrometheusServer.Target(fleet.address(), Map.of("scenario", scenario.cliName())));
        }
        List<Path> rules = ruleFiles();
        PrometheusServer.checkRules(work, rules);
        prometheus = PrometheusServer.start(Files.createDirectories(work.resolve("prometheus")), targets,
                SimulatedFleet.VIEWER_TOKEN, rules);

        int nodes = fleets.values().stream().mapToInt(f -> f.agentNames().size()).sum();
        Waits.poll("all " + nodes + " agents up in Prometheus", () -> prometheus.query("rdma_agent_up"),
                up -> agentsUp(up) >= nodes, Duration.ofSeconds(60), Duration.ofMillis(500));
        scenarioOfNode = nodeScenarios();
        runProbe(fleets.get(Scenario.HEALTHY), Scenario.HEALTHY.cliName() + "-");
        SimulatedFleet staleFleet = fleets.get(STALE_IN);
        staleNode = staleFleet.agentNames().get(staleFleet.agentNames().size() - 1);
        staleFleet.stopAgent(staleNode);

        List<Expected> expected = expectations();
        alerts = Waits.pollUntil(prometheus::alerts,
                seen -> expected.stream().allMatch(e -> anyAlert(seen, e::metBy)), alertBudget(), Duration.ofSeconds(1));
        waited = Duration.ofNanos(System.nanoTime() - started);
        boolean met = expected.stream().allMatch(e -> anyAlert(e::metBy));
        System.out.printf("ScenarioAlertsIT: --metrics %s; rule durations divided by %d; %s after %d s%n%s%n", METRICS,
                REALTIME ? 1 : SCALE, met ? "every expected alert firing" : "deadline passed", waited.toSeconds(),
                describe(alerts));
    }

    @AfterAll
    static void stopEverything() throws Exception {
        try {
            if (prometheus != null) {
                prometheus.close();
            }
            for (SimulatedFleet fleet : fleets.values()) {
                fleet.close();
            }
        } finally {
            if (trees != null) {
                try (Stream<Path> paths = Files.walk(trees)) {
                    for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                        Files.delete(path);
                    }
                }
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(value = Scenario.class, names = "HEALTHY", mode = EnumSource.Mode.EXCLUDE)
    void theScenarioFiresItsAlertsOnTheFaultyNodesAndNoOther(Scenario scenario) {
        List<Expected> expected = expectations().stream().filter(e -> e.scenario() == scenario).toList();
        List<Expected> missing = expected.stream().filter(e -> !anyAlert(e::metBy)).toList();
        assertTrue(missing.isEmpty(), scenario + ": not firing after " + waited.toSeconds() + " s: " + missing
                + "\nalerts seen:\n" + describe(alerts));
        List<Expected> tolerated = tolerated(scenario);
        List<JsonNode> unexplained = new ArrayList<>();
        alerts.forEach(a -> {
            if (a.path("state").asText().equals("firing")
                    && scenario.cliName().equals(scenarioOfNode.get(a.path("labels").path("node").asText()))
                    && expected.stream().noneMatch(e -> e.explains(a)) && tolerated.stream().noneMatch(e -> e.metBy(a))) {
                unexplained.add(a);
            }
        });
        assertTrue(unexplained.isEmpty(), scenario + ": alerts no fault explains:\n" + describe(unexplained));
    }

    /** Checked on the snapshot taken once every other scenario's alerts fired: healthy ran as long. */
    @Test
    void nothingFiresOrIsPendingForHealthy() {
        List<JsonNode> healthy = new ArrayList<>();
        alerts.forEach(a -> {
            if (Scenario.HEALTHY.cliName().equals(scenarioOfNode.get(a.path("labels").path("node").asText()))) {
                healthy.add(a);
            }
        });
        assertTrue(anyAlert(a -> a.path("state").asText().equals("firing")), "no alert fired at all: the check below would be empty");
        assertTrue(healthy.isEmpty(), "alerts on healthy nodes:\n" + describe(healthy));
    }

    @Test
    void aStoppedAgentIsReportedStaleAndOnlyThatOne() {
        Expected stale = new Expected(STALE_IN, staleNode, "RdmaAgentStale", "agent_stale");
        assertTrue(anyAlert(stale::metBy), "RdmaAgentStale not firing for " + staleNode + "\nalerts seen:\n" + describe(alerts));
        List<String> staleNodes = new ArrayList<>();
        alerts.forEach(a -> {
            if (a.path("labels").path("rule").asText().equals("agent_stale")) {
                staleNodes.add(a.path("labels").path("node").asText());
            }
        });
        assertEquals(List.of(staleNode), staleNodes);
    }

    /**
     * Every panel query returns data against the Prometheus that has seen every scenario, the
     * diagnosis engine's {@code rdma_diagnosis_active} and the probe of {@link #runProbe}.
     */
    @Test
    void everyDashboardQueryReturnsData() throws Exception {
        List<String> empty = new ArrayList<>();
        int checked = 0;
        for (DashboardQueries.PanelQuery query : DashboardQueries.read(DASHBOARDS)) {
            if (query.dashboard().equals(HEALTH_DASHBOARD)) {
                continue; // rdmamon's own processes (agents' --listen, replicas' JVMs): not a simulated fleet's data
            }
            checked++;
            if (prometheus.query(query.expr()).isEmpty()) {
                empty.add(query.toString());
            }
        }
        System.out.println("ScenarioAlertsIT: " + checked + " dashboard queries checked under --metrics " + METRICS);
        assertTrue(checked > 0, "no dashboard query found in " + DASHBOARDS);
        assertTrue(empty.isEmpty(), "dashboard queries without data:\n  " + String.join("\n  ", empty));
    }

    /**
     * One short probe between the fleet's first two RoCE ports (two nodes when there are two RoCE
     * nodes, else both ports of one), started with the operator token, awaited until it is done.
     */
    private static void runProbe(SimulatedFleet fleet, String nodePrefix) throws Exception {
        List<String> ports = new ArrayList<>();
        for (SimulatedNode node : fleet.fabric().nodes()) {
            if (node.kind() == NodeKind.ROCE_MLX5) {
                ports.add(nodePrefix + node.name() + "/mlx5_0");
                ports.add(nodePrefix + node.name() + "/mlx5_1");
            }
        }
        assumeTrue(ports.size() >= 2, "the fleet has no RoCE node");
        String source = ports.get(0);
        String destination = ports.size() > 2 ? ports.get(2) : ports.get(1);
        ObjectMapper json = new ObjectMapper();
        String body = json.createObjectNode()
                .<com.fasterxml.jackson.databind.node.ObjectNode>set("source", endpoint(json, source))
                .<com.fasterxml.jackson.databind.node.ObjectNode>set("destination", endpoint(json, destination))
                .put("durationSeconds", 1).toString();
        HttpClient http = HttpClient.newHttpClient();
        HttpResponse<String> started = http.send(HttpRequest.newBuilder(URI.create(fleet.baseUrl() + "/api/probes"))
                .header("Authorization", "Bearer " + SimulatedFleet.OPERATOR_TOKEN)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(202, started.statusCode(), started.body());
        String id = json.readTree(started.body()).path("id").asText();
        JsonNode probe = Waits.pollUntil(
                () -> json.readTree(http.send(HttpRequest.newBuilder(URI.create(fleet.baseUrl() + "/api/probes/" + id))
                        .header("Authorization", "Bearer " + SimulatedFleet.VIEWER_TOKEN).build(),
                        HttpResponse.BodyHandlers.ofString()).body()),
                seen -> seen.path("finishedMillis").isNumber(), Duration.ofSeconds(30), Duration.ofMillis(250));
        assertEquals("done", probe.path("state").asText(), "probe " + source + " -> " + destination + ": " + probe);
    }

    private static com.fasterxml.jackson.databind.node.ObjectNode endpoint(ObjectMapper json, String nodeAndDevice) {
        String[] parts = nodeAndDevice.split("/");
        return json.createObjectNode().put("node", parts[0]).put("device", parts[1]).put("port", 1);
    }

    private static boolean hasOfedEcnFiles(SimulatedNode node) {
        try (Stream<Path> netdevs = Files.list(node.hostRoot().resolve("sys/class/net"))) {
            return netdevs.anyMatch(netdev -> Files.isDirectory(netdev.resolve("ecn")));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** One expectation per rule of each faulty node's fault, plus the stopped agent's staleness. */
    private static List<Expected> expectations() {
        List<Expected> expected = new ArrayList<>();
        fleets.forEach((scenario, fleet) -> {
            for (SimulatedNode node : fleet.fabric().nodes()) {
                expected.addAll(onNode(scenario, node, ALERTS_BY_FAULT.get(node.fault())));
                // ecn-off shows in the configuration only where MLNX_OFED's ecn/ files exist (the ConnectX-5 hosts)
                if (node.fault() == Scenario.ECN_OFF && hasOfedEcnFiles(node)) {
                    expected.add(new Expected(scenario, scenario.cliName() + "-" + node.name(),
                            "RdmaEcnDisabledOnLossless", "ecn_disabled_on_lossless"));
                }
            }
        });
        if (staleNode != null) {
            expected.add(new Expected(STALE_IN, staleNode, "RdmaAgentStale", "agent_stale"));
        }
        return expected;
    }

    /** The alerts {@link #TOLERATED_BY_FAULT} allows on the faulty nodes of {@code scenario}'s fleet. */
    private static List<Expected> tolerated(Scenario scenario) {
        List<Expected> tolerated = new ArrayList<>();
        for (SimulatedNode node : fleets.get(scenario).fabric().nodes()) {
            tolerated.addAll(onNode(scenario, node, TOLERATED_BY_FAULT.getOrDefault(node.fault(), Map.of())));
        }
        return tolerated;
    }

    /** {@code alerts} (alert name to {@code rule} label) on {@code node} of {@code scenario}'s fleet. */
    private static List<Expected> onNode(Scenario scenario, SimulatedNode node, Map<String, String> alerts) {
        String name = scenario.cliName() + "-" + node.name();
        return alerts.entrySet().stream().map(alert -> new Expected(scenario, name, alert.getKey(), alert.getValue()))
                .toList();
    }

    private static List<Path> ruleFiles() throws IOException {
        if (REALTIME) {
            try (Stream<Path> list = Files.list(RULES)) {
                return list.filter(f -> f.toString().endsWith(".yml")).sorted().toList();
            }
        }
        return RuleDurations.scaledCopies(RULES, work, SCALE);
    }

    /** The longest {@code for:} (10m) plus the rate window (2m) plus a minute for startup and a loaded machine. */
    private static Duration alertBudget() {
        Duration rules = Duration.ofMinutes(10).plus(Duration.ofMinutes(2));
        return (REALTIME ? rules : Duration.ofSeconds((rules.toSeconds() + SCALE - 1) / SCALE)).plusSeconds(60);
    }

    /**
     * eRDMA nodes appear from 2 nodes, InfiniBand from 3; mixed needs 8 for two faulty nodes, tor-uplink-loss 8 for
     * three leaves of RoCE nodes; the QoS scenarios 5, so that 3 RoCE nodes make a fleet whose majority the faulty one
     * drifts from (qos_config_drift).
     */
    private static int nodeCount(Scenario scenario) {
        return switch (scenario) {
            case HEALTHY -> 3;
            case MIXED, TOR_UPLINK_LOSS -> 8;
            case PFC_LOST, TRUST_PCP, DSCP_MAP_WRONG -> 5;
            default -> 2;
        };
    }

    /** Several lossless priorities, none of the scenarios relying on the default 3 alone. */
    private static int losslessPriority(Scenario scenario) {
        return switch (scenario) {
            case HEALTHY, WRONG_PRIORITY, PFC_STORM -> 5;
            case ECN_OFF -> 4;
            case GID_MISSING -> 6;
            case MIXED -> 2;
            case PFC_LOST -> 1;
            case TRUST_PCP -> 7;
            case DSCP_MAP_WRONG -> 0;
            default -> 3;
        };
    }

    private static Map<String, String> nodeScenarios() throws IOException, InterruptedException {
        Map<String, String> map = new HashMap<>();
        for (JsonNode series : prometheus.query("group by (node, scenario) (rdma_agent_up)")) {
            map.put(series.path("metric").path("node").asText(), series.path("metric").path("scenario").asText());
        }
        return map;
    }

    /** The series of an {@code rdma_agent_up} query result whose value is 1. */
    private static long agentsUp(JsonNode result) {
        long up = 0;
        for (JsonNode series : result) {
            up += series.path("value").get(1).asText().equals("1") ? 1 : 0;
        }
        return up;
    }

    private static boolean anyAlert(java.util.function.Predicate<JsonNode> test) {
        return anyAlert(alerts, test);
    }

    private static boolean anyAlert(JsonNode seen, java.util.function.Predicate<JsonNode> test) {
        for (JsonNode alert : seen) {
            if (test.test(alert)) {
                return true;
            }
        }
        return false;
    }

    private static String describe(Iterable<JsonNode> alerts) {
        List<String> lines = new ArrayList<>();
        for (JsonNode alert : alerts) {
            JsonNode l = alert.path("labels");
            lines.add(String.format("  %-8s %-40s %-26s %s %s/%s %s", alert.path("state").asText(), l.path("alertname").asText(),
                    scenarioOfNode.get(l.path("node").asText()), l.path("node").asText(), l.path("device").asText(),
                    l.path("port").asText(), l.path("priority").isMissingNode() ? "" : "prio " + l.path("priority").asText()));
        }
        return lines.stream().sorted().collect(Collectors.joining("\n"));
    }
}
