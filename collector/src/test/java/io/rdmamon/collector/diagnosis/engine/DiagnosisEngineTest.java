package io.rdmamon.collector.diagnosis.engine;

import io.rdmamon.collector.diagnosis.Diagnosis;
import io.rdmamon.collector.diagnosis.DiagnosisConfig;
import io.rdmamon.collector.diagnosis.rules.NodeNameConflict;
import io.rdmamon.collector.model.Rule;
import io.rdmamon.collector.model.Severity;
import io.rdmamon.collector.store.IngestIssues;
import io.rdmamon.collector.store.NodeStore;
import io.rdmamon.collector.store.NodeView;
import io.rdmamon.protocol.model.HostSample;
import io.rdmamon.protocol.model.IbDevice;
import io.rdmamon.protocol.model.IbPort;
import io.rdmamon.protocol.model.PortWorkload;
import io.rdmamon.protocol.model.RdmaResources;
import io.rdmamon.protocol.model.SourceStatus;
import io.rdmamon.protocol.model.TransceiverModule;
import io.rdmamon.protocol.testing.MovingPort;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Hysteresis, fleet context and node-level rules of the engine, fed sample by sample at 1 s. */
class DiagnosisEngineTest {
    private final AtomicLong clock = new AtomicLong(1_700_000_000_000L);
    private final NodeStore store = newStore();
    private final DiagnosisEngine engine = new DiagnosisEngine(DiagnosisConfig.defaults(), store, clock::get);

    /** A store that keeps every node the tests feed (they sweep with views of their own). */
    private NodeStore newStore() {
        return new NodeStore(clock::get, 3, Long.MAX_VALUE / 2, 10, 1000);
    }

    /** One sample of {@code port} on {@code node}, one second after the last. */
    private void feed(String node, MovingPort port) {
        clock.addAndGet(1000);
        deliver(store, engine, port.sample(node, clock.get(), 1));
    }

    /** As the collector does: the store applies the sample, then the engine evaluates it. */
    private static void deliver(NodeStore store, DiagnosisEngine engine, HostSample sample) {
        if (store.node(sample.node()).isEmpty()) {
            store.connect(sample.node(), "test", 1000);
        }
        assertEquals(NodeStore.Ingest.APPLIED, store.accept(sample));
        engine.accept(sample);
    }

    private Set<String> active() {
        return engine.snapshot().diagnoses().stream()
                .map(d -> d.node() + " " + (d.nodeLevel() ? "" : d.device() + "/" + d.port() + " ") + d.rule().id())
                .collect(Collectors.toSet());
    }

    /** A sample of a RoCE port whose QSFP-DD's lane 4 receives {@code rxLane4Watts}, {@code stepMillis} after the last. */
    private void feedOptic(double rxLane4Watts, long stepMillis) {
        clock.addAndGet(stepMillis);
        TransceiverModule optic = new TransceiverModule("CMIS", 0x18, "QSFP-DD", "Eoptolink", "EOLD-168HG-10-1", "01",
                "DR4R030015", "250428", 45.0, 3.3, List.of(new TransceiverModule.Lane(3, 0.8e-3, 1.5e-3, 0.1),
                new TransceiverModule.Lane(4, rxLane4Watts, 1.5e-3, 0.1)), null, List.of());
        IbPort port = IbPort.builder().port(1).stateId(4).state("ACTIVE").physStateId(5).physState("LinkUp")
                .linkLayer("Ethernet").lid("0x0").netdev("ens6f0np0").module(optic).build();
        deliver(store, engine, new HostSample("n7", clock.get(), List.of(new IbDevice("mlx5_2", 1, "CA", null, null,
                "x", "MT4125", null, List.of(port))), List.of()));
    }

    /** The module diagnoses now (the port has no RoCE v2 GID, so gid_no_rocev2 is active too and not looked at). */
    private Set<String> moduleDiagnoses() {
        return active().stream().filter(d -> d.contains(" module_")).collect(Collectors.toSet());
    }

    @Test
    void aModuleThatArrivesLowHasNoLevelToFallFrom() {
        for (int i = 0; i < 5; i++) {
            feedOptic(0.35e-3, 10_000);
        }
        assertEquals(Set.of(), moduleDiagnoses());
    }

    @Test
    void aLaneFallingBelowItsOwnBaselineRaisesModulePowerOutOfRange() {
        for (int i = 0; i < 90; i++) { // 15 minutes at 0.8 mW
            feedOptic(0.8e-3, 10_000);
        }
        assertEquals(Set.of(), moduleDiagnoses());
        for (int i = 0; i < 3; i++) { // then 3.6 dB lower, far inside any SR or DR module's range
            feedOptic(0.35e-3, 10_000);
        }
        assertEquals(Set.of("n7 mlx5_2/1 module_power_out_of_range"), moduleDiagnoses());
        String evidence = engine.snapshot().diagnoses().stream().filter(d -> d.rule() == Rule.MODULE_POWER_OUT_OF_RANGE)
                .findFirst().orElseThrow().evidence();
        assertTrue(evidence.contains("lane 4 Rx power -4.56 dBm, 3.6 dB below its baseline -0.97 dBm"), evidence);
    }

    @Test
    void raisesAfterThreeConsecutiveSamplesSinceTheFirstOfThem() {
        MovingPort port = MovingPort.roce().healthyTraffic(3);
        feed("n1", port); // first sample: no rates yet
        port.healthyTraffic(0).rate("eth:tx_prio3_bytes", 0).rate("eth:rx_prio3_bytes", 0);
        feed("n1", port);
        long firstTrue = clock.get();
        feed("n1", port);
        assertEquals(Set.of(), active(), "two samples are not enough");
        feed("n1", port);
        assertEquals(Set.of("n1 mlx5_0/1 roce_traffic_outside_lossless_priority"), active());
        Diagnosis d = engine.snapshot().diagnoses().get(0);
        assertEquals(firstTrue, d.sinceMillis());
        assertEquals(Severity.CRITICAL, d.severity());
        assertTrue(d.evidence().contains("on priority 0, which has no PFC"), d.evidence());
    }

    @Test
    void oneSpikeSampleDoesNotRaiseForAnyRateRuleThreeDo() {
        for (MovingPort spike : List.of(MovingPort.roce().healthyTraffic(0),
                MovingPort.roce().healthyTraffic(3).rate("eth:tx_prio3_pause_duration", 990_000),
                MovingPort.roce().healthyTraffic(3).rate("hw:out_of_sequence", 50),
                MovingPort.roce().healthyTraffic(3).rate("hw:rp_cnp_ignored", 50),
                MovingPort.roce().pfc().healthyTraffic(3),
                MovingPort.erdma().rate("hw:tx_bps_limit_drop_cnt", 50))) {
            assertEquals(List.of(), withSpike(spike, 1), "one sample of " + spike.rates());
            assertEquals(1, withSpike(spike, 3).size(), "three samples of " + spike.rates());
        }
    }

    /** Two quiet samples, {@code samples} with the spike's rates, three quiet ones; the diagnoses left. */
    private List<Diagnosis> withSpike(MovingPort spike, int samples) {
        NodeStore freshStore = newStore();
        DiagnosisEngine fresh = new DiagnosisEngine(DiagnosisConfig.defaults(), freshStore, clock::get);
        java.util.Map<String, Double> spikeRates = spike.rates();
        for (int i = 0; i < 5 + samples; i++) {
            boolean spiking = i >= 2 && i < 2 + samples;
            spikeRates.forEach((key, perSecond) -> spike.rate(key, spiking ? perSecond : 0.0));
            clock.addAndGet(1000);
            deliver(freshStore, fresh, spike.sample("n1", clock.get(), 1));
        }
        spikeRates.forEach(spike::rate);
        return fresh.snapshot().diagnoses();
    }

    @Test
    void aPortDiagnosisNamesTheWorkloadsOnThePortButNotKernelQpsNorThoseOfExitedProcesses() {
        MovingPort port = MovingPort.roce().healthyTraffic(3).rate("hw:out_of_sequence", 40);
        RdmaResources resources = new RdmaResources(Map.of(), List.of(), 0).withWorkloads(List.of(
                new PortWorkload(1, "ml", "train-llama-0", "worker", "python3", PortWorkload.PROCESS, null, 12),
                new PortWorkload(1, null, null, null, "ib_write_bw", PortWorkload.NONE, "not a Kubernetes cgroup", 1),
                new PortWorkload(1, null, null, null, "[ib_core]", PortWorkload.NONE, PortWorkload.KERNEL_QP, 1),
                new PortWorkload(1, null, null, null, null, PortWorkload.NONE, PortWorkload.PROCESS_EXITED, 3)));
        for (int i = 0; i < 5; i++) {
            clock.addAndGet(1000);
            HostSample sample = port.sample("n1", clock.get(), 1);
            deliver(store, engine, new HostSample(sample.node(), sample.timestampMillis(), sample.devices().stream()
                    .map(d -> d.withResources(resources)).toList(), sample.sources()));
        }
        String evidence = engine.snapshot().diagnoses().stream().filter(d -> d.rule() == Rule.TRANSPORT_LOSS)
                .findFirst().orElseThrow().evidence();
        assertTrue(evidence.endsWith("; hits: ml/train-llama-0 (12 QPs), ib_write_bw (1 QP)"), evidence);
    }

    @Test
    void oneQuietSampleDoesNotClearAndTenDo() {
        MovingPort port = MovingPort.roce().healthyTraffic(3).rate("hw:out_of_sequence", 40);
        for (int i = 0; i < 5; i++) {
            feed("n1", port);
        }
        assertEquals(Set.of("n1 mlx5_0/1 transport_loss"), active());
        port.rate("hw:out_of_sequence", 0);
        feed("n1", port);
        port.rate("hw:out_of_sequence", 40);
        feed("n1", port);
        assertEquals(Set.of("n1 mlx5_0/1 transport_loss"), active(), "one quiet sample");
        port.rate("hw:out_of_sequence", 0);
        for (int i = 0; i < 9; i++) {
            feed("n1", port);
        }
        assertEquals(Set.of("n1 mlx5_0/1 transport_loss"), active(), "nine quiet samples");
        feed("n1", port);
        assertEquals(Set.of(), active(), "ten quiet samples");
    }

    @Test
    void linkDownRaisesOnTheFirstSampleByDefaultButNotWithALongerWindow() {
        MovingPort port = MovingPort.ib();
        feed("n1", port);
        port.state(1);
        feed("n1", port);
        assertEquals(Set.of("n1 mlx5_0/1 link_down"), active());

        NodeStore strictStore = newStore();
        DiagnosisEngine strict = new DiagnosisEngine(DiagnosisConfig.defaults().toBuilder().windows(java.util.Map.of())
                .build(), strictStore, clock::get);
        MovingPort other = MovingPort.ib();
        other.state(1);
        clock.addAndGet(1000);
        deliver(strictStore, strict, other.sample("n2", clock.get(), 1));
        other.state(4);
        clock.addAndGet(1000);
        deliver(strictStore, strict, other.sample("n2", clock.get(), 1));
        assertEquals(List.of(), strict.snapshot().diagnoses(), "one DOWN sample with raiseAfterSamples 3");
    }

    @Test
    void aPortBelowTheFleetsMostCommonRateOfItsModelIsDegraded() {
        for (int i = 1; i <= 3; i++) {
            feed("n" + i, MovingPort.roce().healthyTraffic(3));
        }
        MovingPort slow = MovingPort.roce().healthyTraffic(3).linkRate("100 Gb/sec (4X EDR)", 12_500_000_000L);
        MovingPort otherModel = MovingPort.roce().healthyTraffic(3).hcaType("MT4121")
                .linkRate("100 Gb/sec (4X EDR)", 12_500_000_000L);
        for (int i = 0; i < 3; i++) {
            feed("slow", slow);
            feed("cx5", otherModel);
        }
        assertEquals(Set.of("slow mlx5_0/1 link_degraded"), active());
        Diagnosis d = engine.snapshot().diagnoses().get(0);
        assertEquals("runs at 100 Gb/sec (4X EDR), expected 200 Gb/s (the rate of 3 of 4 active MT4123 Ethernet ports in"
                + " the fleet)", d.evidence());
    }

    @Test
    void noFleetExpectationBelowThreePortsOfAModel() {
        feed("n1", MovingPort.roce().healthyTraffic(3));
        MovingPort slow = MovingPort.roce().healthyTraffic(3).linkRate("200 Gb/sec (4X HDR)", 12_500_000_000L);
        for (int i = 0; i < 4; i++) {
            feed("slow", slow);
        }
        assertEquals(Set.of(), active());
    }

    @Test
    void aFlappingLinkStaysDegradedForTheFlapWindow() {
        MovingPort port = MovingPort.roce().healthyTraffic(3).rate("pma:link_downed", 0);
        feed("n1", port);
        port.rate("pma:link_downed", 1);
        feed("n1", port);
        port.rate("pma:link_downed", 0);
        for (int i = 0; i < 3; i++) {
            feed("n1", port);
        }
        assertEquals(Set.of("n1 mlx5_0/1 link_degraded"), active(), "one flap keeps the condition for 2 minutes");
        clock.addAndGet(121_000);
        for (int i = 0; i < 10; i++) {
            feed("n1", port);
        }
        assertEquals(Set.of(), active());
    }

    @Test
    void aStaleNodeIsDiagnosedOnTheSweepAndAFreshSampleClearsIt() {
        MovingPort port = MovingPort.roce().healthyTraffic(3);
        feed("n1", port);
        HostSample last = port.sample("n1", clock.get(), 0);
        engine.sweep(List.of(view("n1", true, last)));
        assertEquals(Set.of(), active());
        clock.addAndGet(10_000);
        engine.sweep(List.of(view("n1", false, last)));
        assertEquals(Set.of("n1 agent_stale"), active());
        Diagnosis d = engine.snapshot().diagnoses().get(0);
        assertTrue(d.nodeLevel());
        assertTrue(d.evidence().startsWith("no sample for 10 s"), d.evidence());
        feed("n1", port);
        assertEquals(Set.of(), active());
    }

    @Test
    void failingSourcesRaiseAgentStaleAfterThreeSamples() {
        MovingPort port = MovingPort.roce().healthyTraffic(3);
        port.sources(List.of(SourceStatus.failed("ethtool", "eth2", "ioctl SIOCETHTOOL on eth2: No such device")));
        feed("n1", port);
        feed("n1", port);
        assertEquals(Set.of(), active());
        feed("n1", port);
        assertEquals(Set.of("n1 agent_stale"), active());
        assertEquals("1 source(s) failing: ethtool eth2 failed: ioctl SIOCETHTOOL on eth2: No such device",
                engine.snapshot().diagnoses().get(0).evidence());
    }

    /** The first real-kernel node (rxe on virtio-net, issue 23): its NIC has no DCB, and it streams fine. */
    @Test
    void aSourceTheDeviceDoesNotSupportRaisesNothing() {
        MovingPort port = MovingPort.roce().healthyTraffic(3);
        port.sources(List.of(SourceStatus.ok("sysfs", "mlx5_0"), SourceStatus.ok("ethtool", "eth2"),
                SourceStatus.ok("verbs", "mlx5_0"),
                SourceStatus.unsupported("qos", "eth2", "no DCB support on eth2 (EOPNOTSUPP)")));
        for (int i = 0; i < 12; i++) {
            feed("n1", port);
        }
        assertEquals(Set.of(), active());
    }

    @Test
    void onlyTheFailedSourcesCountBesideAnUnsupportedOne() {
        MovingPort port = MovingPort.roce().healthyTraffic(3);
        port.sources(List.of(SourceStatus.unsupported("qos", "eth2", "no DCB support on eth2 (EOPNOTSUPP)"),
                SourceStatus.failed("ethtool", "eth2", "ioctl SIOCETHTOOL on eth2: No such device")));
        for (int i = 0; i < 3; i++) {
            feed("n1", port);
        }
        assertEquals(Set.of("n1 agent_stale"), active());
        Diagnosis d = engine.snapshot().diagnoses().get(0);
        assertEquals("1 source(s) failing: ethtool eth2 failed: ioctl SIOCETHTOOL on eth2: No such device",
                d.evidence());
        assertEquals(Map.of("failingSources", 1.0), d.values());
    }

    @Test
    void anExpiredNodeTakesItsDiagnosesWithItAndAVanishedPortItsOwn() {
        MovingPort wrong = MovingPort.roce().healthyTraffic(0);
        MovingPort down = MovingPort.ib();
        down.state(1);
        for (int i = 0; i < 4; i++) {
            feed("gone", wrong);
            feed("kept", down);
        }
        assertEquals(Set.of("gone mlx5_0/1 roce_traffic_outside_lossless_priority", "kept mlx5_0/1 link_down"), active());
        long version = engine.snapshot().version();
        engine.sweep(List.of(view("kept", true, down.sample("kept", clock.get(), 0))));
        assertEquals(Set.of("kept mlx5_0/1 link_down"), active());
        assertTrue(engine.snapshot().version() > version);
        clock.addAndGet(1000);
        deliver(store, engine, new HostSample("kept", clock.get(), List.of(), List.of()));
        assertEquals(Set.of(), active(), "the port is gone from the node's sample");
    }

    @Test
    void aRefusedHelloForAHeldNameIsDiagnosedForTenMinutesWithoutASampleOfTheNode() {
        long refusedAt = clock.get();
        IngestIssues conflict = new IngestIssues(Map.of(), 1, refusedAt,
                "hello from /10.0.0.9:5 refused: a live connection from /10.0.0.7:6 holds the name");
        NodeView held = new NodeView("n1", "test", 1000, false, 1, refusedAt, 0, null, null, conflict);
        engine.sweep(List.of(held));
        assertEquals(Set.of("n1 node_name_conflict"), active());
        Diagnosis d = engine.snapshot().diagnoses().get(0);
        assertTrue(d.nodeLevel());
        assertEquals(Severity.WARNING, d.severity());
        assertEquals(refusedAt, d.sinceMillis());
        assertTrue(d.evidence().startsWith("1 hello(s) for this node name refused while a live connection held it"),
                d.evidence());
        assertEquals(Map.of("refusedHellos", 1.0), d.values());

        clock.addAndGet(NodeNameConflict.WINDOW.toMillis());
        engine.sweep(List.of(held));
        assertEquals(Set.of("n1 node_name_conflict"), active(), "still within the window");
        clock.addAndGet(1);
        engine.sweep(List.of(held));
        assertEquals(Set.of(), active(), "no refusal within the last 10 minutes");

        engine.sweep(List.of(new NodeView("n1", "test", 1000, false, 1, clock.get(), 0, null, null,
                new IngestIssues(Map.of(), 2, clock.get(), "again"))));
        assertEquals(Set.of("n1 node_name_conflict"), active());
        engine.sweep(List.of());
        assertEquals(Set.of(), active(), "an expired node takes the diagnosis with it");
    }

    @Test
    void anAgentClockThatStepsBackCostsOneSampleNotEverySampleUntilItCatchesUp() {
        // agent samples are ordered by their sequence: the store applies those stamped before the last one
        MovingPort port = MovingPort.roce().healthyTraffic(3).rate("hw:out_of_sequence", 0);
        store.connect("n1", "test", 1000);
        long stamp = clock.get();
        long seq = 0;
        for (int i = 0; i < 2; i++) {
            clock.addAndGet(1000);
            stamp += 1000;
            deliverFromAgent(port.sample("n1", stamp, 1), ++seq);
        }
        stamp -= 60_000; // the agent's clock steps back a minute
        port.rate("hw:out_of_sequence", 40);
        for (int i = 0; i < 4; i++) {
            clock.addAndGet(1000);
            stamp += 1000;
            deliverFromAgent(port.sample("n1", stamp, 1), ++seq);
        }
        // the first sample after the step has no rate against the one before it; the next three are judged
        assertEquals(Set.of("n1 mlx5_0/1 transport_loss"), active());
    }

    private void deliverFromAgent(HostSample sample, long seq) {
        assertEquals(NodeStore.Ingest.APPLIED, store.accept(sample, "run-1", seq));
        engine.accept(sample);
    }

    @Test
    void criticalFirstThenOldest() {
        MovingPort transport = MovingPort.roce().healthyTraffic(3).rate("hw:out_of_sequence", 40);
        MovingPort down = MovingPort.ib();
        down.state(1);
        for (int i = 0; i < 4; i++) {
            feed("a", transport);
        }
        feed("b", down);
        assertEquals(List.of(Rule.LINK_DOWN, Rule.TRANSPORT_LOSS),
                engine.snapshot().diagnoses().stream().map(Diagnosis::rule).toList());
    }

    private NodeView view(String node, boolean up, HostSample last) {
        return new NodeView(node, "test", 1000, up, 1, clock.get(), last.timestampMillis(), last, null);
    }
}
