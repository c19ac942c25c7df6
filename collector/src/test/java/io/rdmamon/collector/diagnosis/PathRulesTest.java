package io.rdmamon.collector.diagnosis;

import io.rdmamon.collector.diagnosis.engine.DiagnosisEngine;
import io.rdmamon.collector.model.PathVerdict;
import io.rdmamon.collector.model.PortKey;
import io.rdmamon.collector.model.Rule;
import io.rdmamon.collector.pingmesh.PairStats;
import io.rdmamon.collector.pingmesh.PathLocalizer;
import io.rdmamon.collector.store.NodeStore;
import io.rdmamon.protocol.model.HostSample;
import io.rdmamon.protocol.model.PortWorkload;
import io.rdmamon.protocol.model.RdmaResources;
import io.rdmamon.protocol.testing.MovingPort;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * path_loss, path_latency_high and port_unreachable in the engine: raised from the pingmesh's verdicts on the ports
 * they name, with the counters of both ends and the workloads hit, held and cleared with the usual hysteresis.
 */
class PathRulesTest {
    private static final PortKey N1 = new PortKey("n1", "mlx5_0", 1);
    private static final PortKey N2 = new PortKey("n2", "mlx5_0", 1);
    private static final Set<Rule> PATH_RULES = Set.of(Rule.PATH_LOSS, Rule.PATH_LATENCY_HIGH, Rule.PORT_UNREACHABLE);

    private final AtomicLong clock = new AtomicLong(1_700_000_000_000L);
    private final NodeStore store = new NodeStore(clock::get, 3, Long.MAX_VALUE / 2, 10, 1000);
    private final AtomicReference<PathVerdicts> verdicts = new AtomicReference<>(PathVerdicts.NONE);
    private final DiagnosisEngine engine = new DiagnosisEngine(DiagnosisConfig.defaults(), store, clock::get,
            port -> verdicts.get().forPort(port));
    // n1 has symbol errors, n2 retransmits: each end's own counters must show in the evidence
    private final MovingPort n1 = MovingPort.roce().healthyTraffic(3).rate("pma:symbol_error", 2);
    private final MovingPort n2 = MovingPort.roce().healthyTraffic(3).rate("pma:symbol_error", 0)
            .rate("hw:out_of_sequence", 40).rate("hw:local_ack_timeout_err", 0);

    private static PathVerdict path(double loss) {
        return new PathVerdict(Rule.PATH_LOSS, PathVerdict.Culprit.PATH, N1 + PathVerdict.TO + N2, List.of(N1),
                List.of(N1, N2), loss, 14e-6, 900e-6, 1, 1, List.of("n1/mlx5_0/1 is bad with 0 of 18 other peers, "
                + "n2/mlx5_0/1 with 0 of 18", "loss 30% (300 of 1,000 round trips)"));
    }

    /** One second: a sample of each node, n2 first. */
    private void tick() {
        clock.addAndGet(1000);
        for (String node : List.of("n2", "n1")) {
            HostSample sample = (node.equals("n1") ? n1 : n2).sample(node, clock.get(), 1);
            if (store.node(sample.node()).isEmpty()) {
                store.connect(sample.node(), "test", 1000);
            }
            assertEquals(NodeStore.Ingest.APPLIED, store.accept(sample));
            engine.accept(sample);
        }
    }

    /** The path rules' diagnoses (n2's retransmissions raise transport_loss too, which is not looked at). */
    private List<Diagnosis> paths() {
        return engine.snapshot().diagnoses().stream().filter(d -> PATH_RULES.contains(d.rule())).toList();
    }

    private Set<String> active() {
        return paths().stream().map(d -> d.node() + " " + d.rule().id() + " " + d.severity().id()).collect(Collectors.toSet());
    }

    private Diagnosis only() {
        assertEquals(1, paths().size(), active().toString());
        return paths().get(0);
    }

    @Test
    void aPathVerdictRaisesPathLossOnItsSourceWithTheCountersOfBothEndsAndClearsWithHysteresis() {
        tick();
        verdicts.set(PathVerdicts.of(List.of(path(0.3))));
        tick();
        tick();
        assertEquals(Set.of(), active(), "two samples are not enough");
        tick();
        Diagnosis raised = only();
        assertEquals("n1 path_loss critical", raised.node() + " " + raised.rule().id() + " " + raised.severity().id());
        assertEquals("the path n1/mlx5_0/1 → n2/mlx5_0/1: n1/mlx5_0/1 is bad with 0 of 18 other peers, n2/mlx5_0/1 "
                + "with 0 of 18; loss 30% (300 of 1,000 round trips); counters n1/mlx5_0/1: symbol_error 2.0/s, "
                + "rx_prio3_pause 5.0/s, tx_prio3_pause 0.0/s, out_of_sequence 0.0/s; counters of the other end "
                + "n2/mlx5_0/1: symbol_error 0.0/s, rx_prio3_pause 5.0/s, tx_prio3_pause 0.0/s, out_of_sequence 40.0/s, "
                + "local_ack_timeout_err 0.0/s", raised.evidence());
        assertEquals(0.3, raised.values().get("lossRatio"));
        assertEquals(2.0, raised.values().get("symbol_errorPerSecond"), 1e-9);

        verdicts.set(PathVerdicts.NONE);
        for (int i = 0; i < 9; i++) {
            tick();
        }
        assertEquals(Set.of("n1 path_loss critical"), active(), "nine samples without the verdict");
        tick();
        assertEquals(Set.of(), active(), "ten samples without the verdict");
    }

    @Test
    void pathLossWarnsBelowFivePercentAndIsCriticalFromIt() {
        verdicts.set(PathVerdicts.of(List.of(path(0.02))));
        for (int i = 0; i < 4; i++) {
            tick();
        }
        assertEquals(Set.of("n1 path_loss warning"), active());
        verdicts.set(PathVerdicts.of(List.of(path(0.05))));
        tick();
        assertEquals(Set.of("n1 path_loss critical"), active(), "escalates while active");
    }

    /**
     * A lossy port's first bad pair is judged before its others and named a path on its source; once the port's pairs
     * are all in, the localizer names the port. The rule stays raised on the port, and its evidence must say what is
     * blamed now: in the Soft-RoCE lab it went on naming the path for minutes.
     */
    @Test
    void aHeldDiagnosisTakesTheEvidenceOfAVerdictThatNowBlamesAnotherCulprit() {
        verdicts.set(PathVerdicts.of(List.of(path(0.3))));
        for (int i = 0; i < 4; i++) {
            tick();
        }
        Diagnosis asPath = only();
        assertTrue(asPath.evidence().startsWith("the path n1/mlx5_0/1 → n2/mlx5_0/1: "), asPath.evidence());
        tick();
        assertEquals(asPath, only(), "the same verdict leaves the diagnosis as raised");

        PathVerdict port = new PathVerdict(Rule.PATH_LOSS, PathVerdict.Culprit.PORT, N1.toString(), List.of(N1),
                List.of(N1), 0.3, 14e-6, 900e-6, 2, 2, List.of("bad with 2 of 2 peers (2 lossy)"));
        verdicts.set(PathVerdicts.of(List.of(port)));
        tick();
        Diagnosis asPort = only();
        assertTrue(asPort.evidence().startsWith("port n1/mlx5_0/1 (its host or its link): bad with 2 of 2 peers"),
                asPort.evidence());
        assertEquals(asPath.sinceMillis(), asPort.sinceMillis(), "still the same diagnosis, raised when it was");
    }

    @Test
    void aPortVerdictIsRaisedOnThePortAloneAndUnreachableIsCritical() {
        PathVerdict port = new PathVerdict(Rule.PORT_UNREACHABLE, PathVerdict.Culprit.PORT, N2.toString(), List.of(N2),
                List.of(N2), 1.0, Double.NaN, Double.NaN, 4, 4, List.of("bad with 4 of 4 peers (8 unreachable)"));
        verdicts.set(PathVerdicts.of(List.of(port)));
        for (int i = 0; i < 4; i++) {
            tick();
        }
        Diagnosis raised = only();
        assertEquals("n2 port_unreachable critical", raised.node() + " " + raised.rule().id() + " " + raised.severity().id());
        assertTrue(raised.evidence().startsWith("port n2/mlx5_0/1 (its host or its link): bad with 4 of 4 peers "
                + "(8 unreachable); counters n2/mlx5_0/1: symbol_error 0.0/s"), raised.evidence());
        assertEquals(Map.of("lossRatio", 1.0, "affected", 4.0, "judged", 4.0), Map.of("lossRatio",
                raised.values().get("lossRatio"), "affected", raised.values().get("affected"), "judged",
                raised.values().get("judged")));
    }

    @Test
    void aSlowGroupWarnsOnEveryPortOfItWithTheWorkloadsHit() {
        PathVerdict group = new PathVerdict(Rule.PATH_LATENCY_HIGH, PathVerdict.Culprit.GROUP, "leaf-01",
                List.of(N1, N2), List.of(), Double.NaN, 2e-3, 3e-3, 3, 4, List.of("bad towards 3 of 4 other groups"));
        verdicts.set(PathVerdicts.of(List.of(group)));
        RdmaResources resources = new RdmaResources(Map.of(), List.of(), 0).withWorkloads(List.of(
                new PortWorkload(1, "ml", "train-llama-0", "worker", "python3", PortWorkload.PROCESS, null, 12)));
        for (int i = 0; i < 4; i++) {
            clock.addAndGet(1000);
            for (String node : List.of("n1", "n2")) {
                HostSample sample = (node.equals("n1") ? n1 : n2).sample(node, clock.get(), 1);
                HostSample withJobs = new HostSample(node, sample.timestampMillis(), sample.devices().stream()
                        .map(d -> d.withResources(resources)).toList(), sample.sources());
                if (store.node(node).isEmpty()) {
                    store.connect(node, "test", 1000);
                }
                store.accept(withJobs);
                engine.accept(withJobs);
            }
        }
        assertEquals(Set.of("n1 path_latency_high warning", "n2 path_latency_high warning"), active());
        String evidence = paths().get(0).evidence();
        assertTrue(evidence.startsWith("group leaf-01 (its switch or its uplinks): bad towards 3 of 4 other groups; "
                + "counters "), evidence);
        assertTrue(evidence.endsWith("; hits: ml/train-llama-0 (12 QPs)"), evidence);
    }

    @Test
    void theLocalizersVerdictOnALossyPortRaisesPathLossOnThatPortAlone() {
        PortKey n3 = new PortKey("n3", "mlx5_0", 1);
        List<PairStats> window = new ArrayList<>();
        for (PortKey src : List.of(N1, N2, n3)) {
            for (PortKey dst : List.of(N1, N2, n3)) {
                if (!src.equals(dst)) {
                    long lost = src.equals(N2) || dst.equals(N2) ? 40 : 0;
                    window.add(new PairStats(src, dst, "fleet", "fleet", 1000, lost, 12e-6, 30e-6, 10, 0));
                }
            }
        }
        verdicts.set(PathVerdicts.of(PathLocalizer.localize(window, PathLocalizer.Thresholds.defaults())));
        for (int i = 0; i < 4; i++) {
            tick();
        }
        assertEquals(Set.of("n2 path_loss warning"), active());
        assertTrue(only().evidence().startsWith("port n2/mlx5_0/1 (its host or its link): bad with 2 of 2 peers "
                + "(4 lossy); 2 of 2 of those peers are fine with the others they probe; loss 4.0% (160 of 4,000 round "
                + "trips)"), only().evidence());
    }

    @Test
    void anEndThisCollectorDoesNotHoldIsSaidToBeElsewhere() {
        PortKey far = new PortKey("n9", "mlx5_3", 1);
        verdicts.set(PathVerdicts.of(List.of(new PathVerdict(Rule.PATH_LOSS, PathVerdict.Culprit.PATH,
                N1 + PathVerdict.TO + far, List.of(N1), List.of(N1, far), 0.01, 14e-6, 20e-6, 1, 1, List.of("x")))));
        for (int i = 0; i < 4; i++) {
            tick();
        }
        assertTrue(only().evidence().endsWith("; counters of the other end n9/mlx5_3/1: not held by this collector"),
                only().evidence());
    }
}
