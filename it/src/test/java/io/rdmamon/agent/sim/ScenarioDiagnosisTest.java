package io.rdmamon.agent.sim;

import io.rdmamon.agent.host.HostReader;
import io.rdmamon.collector.diagnosis.Diagnosis;
import io.rdmamon.collector.diagnosis.DiagnosisConfig;
import io.rdmamon.collector.diagnosis.engine.DiagnosisEngine;
import io.rdmamon.collector.model.Rule;
import io.rdmamon.collector.store.NodeStore;
import io.rdmamon.protocol.model.HostSample;
import io.rdmamon.protocol.model.KernelEvents;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Simulator → real host reader → the collector's diagnosis engine: each scenario raises exactly the rules
 * docs/simulator.md gives for it, on the nodes (and ports) that carry its fault, and nothing anywhere else;
 * {@code healthy} raises none. 6 nodes (RoCE ConnectX-6 and -5, InfiniBand, eRDMA), sampled once per simulated
 * second for 12 s with the engine's default thresholds and windows.
 */
class ScenarioDiagnosisTest {
    private static final long START = 1_800_000_000_000L;
    private static final Path SHM = Path.of("/dev/shm");
    private static final Map<Scenario, Set<Rule>> RULES = Map.ofEntries(
            Map.entry(Scenario.HEALTHY, Set.of()),
            Map.entry(Scenario.WRONG_PRIORITY, Set.of(Rule.ROCE_TRAFFIC_OUTSIDE_LOSSLESS_PRIORITY)),
            Map.entry(Scenario.PFC_STORM, Set.of(Rule.PFC_PAUSE_STORM, Rule.TRANSPORT_LOSS)),
            Map.entry(Scenario.ECN_OFF, Set.of(Rule.ECN_NOT_ENGAGED)),
            Map.entry(Scenario.LINK_DEGRADED, Set.of(Rule.LINK_DEGRADED, Rule.LINK_DOWN, Rule.TRANSPORT_LOSS,
                    Rule.LINK_FLAPPING)),
            Map.entry(Scenario.DIRTY_OPTIC, Set.of(Rule.MODULE_POWER_OUT_OF_RANGE, Rule.FEC_BER_HIGH)),
            Map.entry(Scenario.PCIE_X8, Set.of(Rule.PCIE_DEGRADED)),
            // the simulator's nccl.conf pins NCCL_IB_GID_INDEX to the GID the fault removes
            Map.entry(Scenario.GID_MISSING, Set.of(Rule.GID_NO_ROCEV2, Rule.NCCL_CONF_MISMATCH)),
            Map.entry(Scenario.ERDMA_RATELIMIT, Set.of(Rule.ERDMA_RATE_LIMITED)),
            // the QoS scenarios: their counters, their configuration against the fleet's, and the nccl.conf whose
            // NCCL_IB_TC no longer reaches a PFC priority
            Map.entry(Scenario.PFC_LOST, Set.of(Rule.PFC_NOT_ENABLED, Rule.QOS_TRUST_NOT_DSCP, Rule.QOS_CONFIG_DRIFT)),
            Map.entry(Scenario.TRUST_PCP, Set.of(Rule.ROCE_TRAFFIC_OUTSIDE_LOSSLESS_PRIORITY, Rule.QOS_TRUST_NOT_DSCP,
                    Rule.NCCL_CONF_MISMATCH, Rule.QOS_CONFIG_DRIFT)),
            Map.entry(Scenario.DSCP_MAP_WRONG, Set.of(Rule.ROCE_TRAFFIC_OUTSIDE_LOSSLESS_PRIORITY,
                    Rule.ROCE_DSCP_NOT_LOSSLESS, Rule.NCCL_CONF_MISMATCH, Rule.QOS_CONFIG_DRIFT)),
            // the GPU topology scenarios (docs/topology.md): on both NICs of the faulty node
            Map.entry(Scenario.GPU_FAR_NIC, Set.of(Rule.GPUDIRECT_NOT_READY, Rule.GPU_NIC_CROSS_NUMA)),
            Map.entry(Scenario.ACS_REDIRECT, Set.of(Rule.PCIE_ACS_REDIRECT, Rule.GPUDIRECT_NOT_READY)),
            Map.entry(Scenario.NO_PEERMEM, Set.of(Rule.GPUDIRECT_NOT_READY)),
            // the last NIC's firmware dies 5 s in: its kernel lines and its devlink fw_fatal reporter in error
            Map.entry(Scenario.FIRMWARE_FATAL, Set.of(Rule.NIC_FIRMWARE_FATAL, Rule.NIC_HEALTH_REPORTER_ERROR)),
            // the nodes under the lossy leaf retransmit; path_loss comes from the pingmesh, not from counters
            Map.entry(Scenario.TOR_UPLINK_LOSS, Set.of(Rule.TRANSPORT_LOSS)),
            // the timed scenarios change 20 simulated seconds in, after this test's 12: nothing yet
            Map.entry(Scenario.MODULE_SWAP, Set.of()), Map.entry(Scenario.REBOOT_QOS, Set.of()));
    /** Faults of one port: the last one of the node. */
    private static final Set<Scenario> LAST_PORT_ONLY = Set.of(Scenario.LINK_DEGRADED, Scenario.GID_MISSING,
            Scenario.DIRTY_OPTIC, Scenario.PCIE_X8, Scenario.FIRMWARE_FATAL);

    @TempDir
    Path temp;

    @ParameterizedTest
    @EnumSource(Scenario.class)
    void raisesExactlyTheRulesOfTheScenarioWhereItsFaultIs(Scenario scenario) throws Exception {
        // tor-uplink-loss needs three leaves of RoCE nodes
        runAndCheck(new SimulationSpec(scenario == Scenario.TOR_UPLINK_LOSS ? 8 : 6, scenario, SimulationSpec.DEFAULT_SEED,
                SimulationSpec.DEFAULT_LOSSLESS_PRIORITY));
    }

    @ParameterizedTest
    @EnumSource(value = Scenario.class, names = {"HEALTHY", "WRONG_PRIORITY"})
    void learnsALosslessPriorityOtherThanThree(Scenario scenario) throws Exception {
        runAndCheck(new SimulationSpec(6, scenario, SimulationSpec.DEFAULT_SEED, 5));
        runAndCheck(new SimulationSpec(6, scenario, SimulationSpec.DEFAULT_SEED, 0));
    }

    /**
     * The rules of the node's fault; ecn-off shows in the configuration (ecn_disabled_on_lossless) only where
     * MLNX_OFED's {@code ecn/} files exist, on the simulator's ConnectX-5 hosts.
     */
    private static Set<Rule> expectedRules(SimulatedNode node) throws IOException {
        Set<Rule> rules = new TreeSet<>(RULES.get(node.fault()));
        if (node.fault() == Scenario.ECN_OFF) {
            try (Stream<Path> netdevs = Files.list(node.hostRoot().resolve("sys/class/net"))) {
                if (netdevs.anyMatch(netdev -> Files.isDirectory(netdev.resolve("ecn")))) {
                    rules.add(Rule.ECN_DISABLED_ON_LOSSLESS);
                }
            }
        }
        return rules;
    }

    private void runAndCheck(SimulationSpec spec) throws Exception {
        // the simulator rewrites thousands of small files per step: on tmpfs when there is one (as the demo does)
        Path dir = Files.createTempDirectory(Files.isWritable(SHM) ? SHM : temp, "rdmamon-diagnosis-");
        AtomicClock clock = new AtomicClock();
        NodeStore store = new NodeStore(clock::now, 3, Duration.ofHours(1).toMillis(), 10, 100);
        DiagnosisEngine engine = new DiagnosisEngine(DiagnosisConfig.defaults(), store, clock::now);
        FabricSimulator fabric = FabricSimulator.create(dir, spec);
        try {
            Map<String, HostReader> readers = new HashMap<>();
            for (SimulatedNode node : fabric.nodes()) {
                readers.put(node.name(), HostReader.forRoot(node.hostRoot()));
                store.connect(node.name(), "test", 1000);
            }
            for (int second = 0; second <= 12; second++) {
                if (second > 0) {
                    fabric.advance(Duration.ofSeconds(1));
                }
                clock.millis = START + second * 1000L;
                for (SimulatedNode node : fabric.nodes()) {
                    HostSample read = readers.get(node.name()).read(node.name());
                    // the reader stamps wall-clock time; the fabric's time is simulated. As in the collector, the store
                    // applies the sample and the engine evaluates it against the one the store held before.
                    HostSample sample = new HostSample(read.node(), clock.millis, read.devices(), read.sources(), read.ncclConf(),
                            read.topology(), read.kernel(), read.health());
                    assertEquals(NodeStore.Ingest.APPLIED, store.accept(sample));
                    if (read.kernel() != null) {
                        store.kernelEvents(node.name(), read.kernel()); // the agent's kernel-events frame
                    }
                    engine.accept(sample);
                }
            }
            Map<String, Set<Rule>> expected = new TreeMap<>();
            for (SimulatedNode node : fabric.nodes()) {
                expected.put(node.name(), expectedRules(node));
            }
            List<Diagnosis> active = engine.snapshot().diagnoses();
            Map<String, Set<Rule>> actual = new TreeMap<>();
            fabric.nodes().forEach(node -> actual.put(node.name(), new TreeSet<>()));
            for (Diagnosis d : active) {
                actual.get(d.node()).add(d.rule());
            }
            assertEquals(expected, actual, spec + ": " + active);
            for (Diagnosis d : active) {
                Scenario fault = fabric.nodes().stream().filter(n -> n.name().equals(d.node())).findFirst().orElseThrow().fault();
                if (LAST_PORT_ONLY.contains(fault)) {
                    assertEquals("mlx5_1", d.device(), "the " + fault + " fault is on the last port: " + d);
                }
                assertFalse(d.evidence().isBlank());
            }
            if (spec.scenario() == Scenario.WRONG_PRIORITY) {
                String evidence = active.get(0).evidence();
                assertEquals(true, evidence.contains("on priority " + spec.wrongPriority() + ", which has no PFC; PFC enabled on"
                        + " priority " + spec.losslessPriority() + " only"), evidence);
            }
            if (spec.scenario() == Scenario.FIRMWARE_FATAL) {
                checkFirmwareFatalLogged(fabric, store, active);
            }
        } finally {
            fabric.deleteTrees();
            Files.deleteIfExists(dir);
        }
    }

    /**
     * firmware-fatal's kernel log: mlx5's two health.c lines, logged 5 s in, are classified on the last NIC's port, and
     * nic_firmware_fatal, raised by them, quotes the latest.
     */
    private static void checkFirmwareFatalLogged(FabricSimulator fabric, NodeStore store, List<Diagnosis> active) {
        String node = fabric.nodes().stream().filter(n -> n.fault() == Scenario.FIRMWARE_FATAL).findFirst().orElseThrow()
                .name();
        List<KernelEvents.Event> logged = store.kernelEvents(node).orElseThrow().recent();
        assertEquals(List.of("firmware_fatal mlx5_1 1", "firmware_fatal mlx5_1 1"),
                logged.stream().map(e -> e.kind() + " " + e.device() + " " + e.port()).toList());
        String synd = ": print_health_info:458:(pid 0): synd 0x8: unrecoverable hardware error";
        assertTrue(logged.get(0).text().endsWith(": poll_health:852:(pid 0): device's health compromised - reached miss"
                + " count"), logged.get(0).text());
        assertTrue(logged.get(1).text().startsWith("mlx5_core 0000:") && logged.get(1).text().endsWith(synd),
                logged.get(1).text());
        Diagnosis fatal = active.stream().filter(d -> d.rule() == Rule.NIC_FIRMWARE_FATAL).findFirst().orElseThrow();
        assertTrue(fatal.evidence().contains("\"" + logged.get(1).text() + "\""), fatal.evidence());
    }

    private static final class AtomicClock {
        volatile long millis = START;

        long now() {
            return millis;
        }
    }
}
