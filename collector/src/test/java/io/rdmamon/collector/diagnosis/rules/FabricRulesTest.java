package io.rdmamon.collector.diagnosis.rules;

import io.rdmamon.collector.fabric.FabricFinding;
import io.rdmamon.collector.fabric.FabricStore;
import io.rdmamon.collector.fabric.FabricVerdict;
import io.rdmamon.collector.fabric.HostPorts;
import io.rdmamon.collector.model.Rule;
import io.rdmamon.collector.store.NodeView;
import io.rdmamon.protocol.fabric.FabricPort;
import io.rdmamon.protocol.fabric.FabricSweep;
import io.rdmamon.protocol.fabric.LinkSpeed;
import io.rdmamon.protocol.model.HostSample;
import io.rdmamon.protocol.model.IbDevice;
import io.rdmamon.protocol.model.PortWorkload;
import io.rdmamon.protocol.model.RdmaResources;
import io.rdmamon.protocol.testing.Samples;
import io.rdmamon.protocol.wire.FabricWire;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.UnaryOperator;

import static io.rdmamon.collector.fabric.SyntheticFabrics.counter;
import static io.rdmamon.collector.fabric.SyntheticFabrics.fatTree;
import static io.rdmamon.collector.fabric.SyntheticFabrics.host;
import static io.rdmamon.collector.fabric.SyntheticFabrics.later;
import static io.rdmamon.collector.fabric.SyntheticFabrics.leaf;
import static io.rdmamon.collector.fabric.SyntheticFabrics.spine;
import static io.rdmamon.collector.fabric.SyntheticFabrics.withPort;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The four fabric rules on synthetic two-level fat trees (2 leaves of 3 hosts, 2 spines), judged by the store as it
 * judges real sweeps: each fault raises its rule on its link and nothing else, and a healthy fabric raises nothing.
 */
class FabricRulesTest {
    private static final long T0 = 1_764_367_084_000L;
    private static final long STEP = 15_000;
    private final AtomicLong now = new AtomicLong(T0);
    private final HostPorts hosts = HostPorts.of(List.of(gpu00()));
    private final FabricStore store = new FabricStore(now::get, Duration.ofMinutes(10), Duration.ofHours(1),
            RuleTable.FABRIC_RULES, () -> hosts);
    private FabricSweep last = fatTree(2, 2, 3, T0);

    /** host0-0 (GUID 0x0000000001000000) is the agent "gpu-00", the training job ml/train-0 on it. */
    private static NodeView gpu00() {
        IbDevice device = new IbDevice("mlx5_0", IbDevice.NODE_TYPE_CA, "CA", "0000:0000:0100:0000", null, null, null,
                null, List.of(Samples.unreadablePort(1)), null, new RdmaResources(Map.of(), List.of(), 0,
                List.of(new PortWorkload(1, "ml", "train-0", "worker", "python3", PortWorkload.DEVICE, null, 4))));
        HostSample sample = new HostSample("gpu-00", T0, List.of(device), List.of());
        return new NodeView("gpu-00", "test", 1000, true, 1, T0, T0, sample, null);
    }

    private List<FabricVerdict> sweep(FabricSweep sweep) {
        last = sweep;
        FabricWire.parts(sweep, 4).forEach(part -> store.accept("sweeper", part));
        return store.fabrics().get(0).verdicts();
    }

    /** The next counters-only sweep, 15 s later, with {@code guid}'s port {@code port} changed. */
    private List<FabricVerdict> next(String guid, int port, UnaryOperator<FabricPort> change) {
        now.addAndGet(STEP);
        return sweep(withPort(later(last, STEP, false), guid, port, change));
    }

    private static String ids(List<FabricVerdict> verdicts) {
        return verdicts.stream().map(v -> v.rule().id() + " " + v.link().id()).toList().toString();
    }

    @Test
    void aHealthyFabricRaisesNothing() {
        assertEquals(List.of(), sweep(last));
        assertEquals(List.of(), next(leaf(0), 1, p -> p));
        now.addAndGet(STEP);
        assertEquals(List.of(), sweep(later(last, STEP, true)));
    }

    @Test
    void portsThatAllClaimMoreThanTheyTrainAreNotDegraded() {
        // ibsim: every port supports and enables 1X/4X/12X and SDR/DDR/QDR, and every link trains 4X SDR
        FabricSweep sweep = fatTree(2, 2, 3, T0);
        for (var node : sweep.nodes()) {
            for (var port : node.ports()) {
                sweep = withPort(sweep, node.guid(), port.number(), FabricRulesTest::claimsAll);
            }
        }
        assertEquals(List.of(), sweep(sweep));
    }

    private static FabricPort claimsAll(FabricPort p) {
        return new FabricPort(p.number(), p.lid(), p.stateId(), p.state(), p.physStateId(), p.physState(), p.width(),
                p.speed(), List.of(1, 4, 12), List.of(LinkSpeed.SDR, LinkSpeed.DDR, LinkSpeed.QDR), List.of(1, 4, 12),
                List.of(LinkSpeed.SDR, LinkSpeed.DDR, LinkSpeed.QDR), p.remoteGuid(), p.remotePort(), p.counterSets(),
                p.counters());
    }

    @Test
    void symbolErrorsRisingOnALinkRaiseCableErrorsNamingBothEndsTheHostAndItsWorkloads() {
        sweep(last);
        List<FabricVerdict> verdicts = next(leaf(0), 1, p -> counter(p, "SymbolErrorCounter", 50));
        assertEquals("[fabric_cable_errors " + host(0, 0) + "/1-" + leaf(0) + "/1]", ids(verdicts));
        String evidence = verdicts.get(0).evidence();
        assertTrue(evidence.startsWith("SymbolErrorCounter +50 at leaf0 (" + leaf(0) + ")[1] in 15 s"), evidence);
        assertTrue(evidence.contains("host0-0 mlx5_0 (" + host(0, 0) + ")[1] <-> leaf0 (" + leaf(0) + ")[1]"), evidence);
        assertTrue(evidence.contains("hosts behind it: gpu-00 mlx5_0 port 1 (workloads: ml/train-0)"), evidence);
        // held 10 minutes after the last rise, then cleared
        assertEquals(1, next(leaf(0), 1, p -> p).size());
        now.addAndGet(Duration.ofMinutes(10).toMillis());
        assertEquals(List.of(), sweep(later(last, Duration.ofMinutes(10).toMillis(), false)));
    }

    @Test
    void linkDownedAtASpineRaisesCableErrorsOnTheUplinkOnly() {
        sweep(last);
        List<FabricVerdict> verdicts = next(spine(1), 2, p -> counter(p, "LinkDownedCounter", 1));
        assertEquals("[fabric_cable_errors " + leaf(1) + "/5-" + spine(1) + "/2]", ids(verdicts));
        assertTrue(verdicts.get(0).evidence().contains("no agent reports a host behind either end"),
                verdicts.get(0).evidence());
    }

    @Test
    void aCounterThatWentDownIsNoRise() {
        sweep(withPort(last, leaf(0), 1, p -> counter(p, "SymbolErrorCounter", 50)));
        assertEquals(List.of(), next(leaf(0), 1, p -> counter(p, "SymbolErrorCounter", 0)));
    }

    @Test
    void a1XLinkAmong4XOnesIsDegraded() {
        FabricSweep sweep = withPort(withPort(last, host(1, 2), 1, p -> width(p, 1)), leaf(1), 3, p -> width(p, 1));
        List<FabricVerdict> verdicts = sweep(sweep);
        assertEquals("[fabric_link_degraded " + host(1, 2) + "/1-" + leaf(1) + "/3]", ids(verdicts));
        assertTrue(verdicts.get(0).evidence().startsWith("trained 1X SDR where both ends enable 4X SDR and most of the 5"
                + " other link(s) between the same tiers run 4X SDR"), verdicts.get(0).evidence());
    }

    @Test
    void aLinkAloneBetweenItsTiersIsNotJudged() {
        // one leaf, one host: nothing to compare the 1X link with
        FabricSweep lone = fatTree(1, 0, 1, T0);
        lone = withPort(withPort(lone, host(0, 0), 1, p -> width(p, 1)), leaf(0), 1, p -> width(p, 1));
        assertEquals(List.of(), sweep(lone));
    }

    private static FabricPort width(FabricPort p, int lanes) {
        return new FabricPort(p.number(), p.lid(), p.stateId(), p.state(), p.physStateId(), p.physState(), lanes,
                p.speed(), p.widthsSupported(), p.speedsSupported(), p.widthsEnabled(), p.speedsEnabled(),
                p.remoteGuid(), p.remotePort(), p.counterSets(), p.counters());
    }

    private static FabricPort down(FabricPort p) {
        return new FabricPort(p.number(), p.lid(), 1, "Down", 2, "Polling", null, null, p.widthsSupported(),
                p.speedsSupported(), p.widthsEnabled(), p.speedsEnabled(), null, null, p.counterSets(), p.counters());
    }

    @Test
    void aLinkThatWasUpAndIsGoneIsDownUntilItIsBack() {
        FabricSweep healthy = last;
        sweep(healthy);
        now.addAndGet(STEP);
        List<FabricVerdict> verdicts = sweep(withPort(withPort(later(healthy, STEP, true), leaf(0), 4,
                FabricRulesTest::down), spine(0), 1, FabricRulesTest::down));
        assertEquals("[fabric_link_down " + leaf(0) + "/4-" + spine(0) + "/1]", ids(verdicts));
        assertTrue(verdicts.get(0).evidence().contains("was up and is gone (leaf0 (" + leaf(0) + ")[4]: Down/Polling"),
                verdicts.get(0).evidence());
        // a counters-only sweep keeps it; the link's return clears it
        assertEquals(1, next(leaf(1), 1, p -> p).size());
        now.addAndGet(STEP);
        assertEquals(List.of(), sweep(later(healthy, 3 * STEP, true)));
    }

    @Test
    void aNodeMissingFromAFailedSweepIsNotTakenForADownLink() {
        sweep(last);
        now.addAndGet(STEP);
        FabricSweep withoutSpine = later(last, STEP, true).withNodes(last.nodes().stream()
                .filter(n -> !n.guid().equals(spine(1))).toList());
        FabricSweep failed = new FabricSweep(withoutSpine.subnetPrefix(), withoutSpine.smLid(), withoutSpine.smGuid(),
                "sweeper", withoutSpine.timeMillis(), 1, true, false, List.of("spine1: no answer"), withoutSpine.nodes());
        assertEquals(List.of(), sweep(failed));
        now.addAndGet(STEP);
        FabricSweep gone = new FabricSweep(failed.subnetPrefix(), failed.smLid(), failed.smGuid(), "sweeper",
                failed.timeMillis() + STEP, 1, true, true, List.of(), failed.nodes());
        assertEquals(2, sweep(gone).stream().filter(v -> v.rule() == Rule.FABRIC_LINK_DOWN).count(),
                "a successful sweep without the spine: its two uplinks are down");
    }

    @Test
    void aSwitchPortWaitingMostOfItsTimeIsCongestedAndNamedWithTheOtherHotPorts() {
        sweep(withPort(last, spine(0), 1, p -> counter(p, "PortXmitData", 0)));
        now.addAndGet(STEP);
        FabricSweep hot = withPort(later(last, STEP, false), spine(0), 1, p -> counter(counter(p, "PortXmitWait",
                40_000), "PortXmitData", 10_000));
        hot = withPort(hot, leaf(1), 4, p -> counter(p, "PortXmitWait", 900_000)); // waited, sent nothing
        hot = withPort(hot, leaf(0), 2, p -> counter(p, "PortXmitWait", 500)); // below the minimum
        hot = withPort(hot, host(0, 1), 1, p -> counter(p, "PortXmitWait", 900_000)); // an HCA: not judged
        List<FabricVerdict> verdicts = sweep(hot);
        assertEquals("[fabric_congestion " + leaf(0) + "/4-" + spine(0) + "/1, fabric_congestion " + leaf(1) + "/4-"
                + spine(0) + "/2]", ids(verdicts));
        String evidence = verdicts.get(0).evidence();
        assertTrue(evidence.startsWith("spine0 (" + spine(0) + ")[1] waited 80% (40000 ticks) of its transmit time"),
                evidence);
        assertTrue(evidence.endsWith("1 other hot port(s) in the fabric: leaf1 (" + leaf(1) + ")[4] waited 100% "
                + "(900000 ticks)"), evidence);
    }

    @Test
    void findingsAreIndependentOfTheSweepOrderOfTheirRules() {
        for (var rule : RuleTable.FABRIC_RULES) {
            List<FabricFinding> none = rule.evaluate(new io.rdmamon.collector.fabric.FabricInput("s", null, last, 0,
                    List.of(), HostPorts.NONE));
            assertEquals(List.of(), none, rule.id().id() + " on a first, healthy sweep");
        }
    }
}
