package io.rdmamon.collector.diagnosis;

import io.rdmamon.collector.diagnosis.engine.DiagnosisEngine;
import io.rdmamon.collector.diagnosis.rules.LinkFlapping;
import io.rdmamon.collector.flaps.FlapLedger;
import io.rdmamon.collector.flaps.PortFlaps;
import io.rdmamon.collector.model.Rule;
import io.rdmamon.collector.model.Severity;
import io.rdmamon.collector.store.NodeStore;
import io.rdmamon.protocol.model.HostSample;
import io.rdmamon.protocol.model.IbDevice;
import io.rdmamon.protocol.model.IbPort;
import io.rdmamon.protocol.model.SourceStatus;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** link_flapping: the rule on ledger counts, and the engine keeping the ledger and escalating. */
class LinkFlappingTest {
    private static final DiagnosisConfig CONFIG = DiagnosisConfig.defaults();

    @ParameterizedTest(name = "{0} in 10 min, {1} in 24 h -> {2}")
    @CsvSource({
            "0, 0, none",
            "2, 2, none",
            "3, 3, warning",
            "2, 9, none",
            "0, 10, critical",
            "5, 40, critical"})
    void warnsOnShortBurstsAndIsCriticalOnADayOfFlaps(long inWarning, long inCritical, String expected) {
        Optional<Finding> finding = evaluate(new PortInput.FlapCounts(inWarning, inCritical, Set.of()));

        assertEquals(expected, finding.map(f -> f.severity().id()).orElse("none"));
        finding.ifPresent(f -> {
            assertEquals("the link (netdev ens7f1np1) went down " + inWarning + " time(s) in the last 10 min and "
                    + inCritical + " in the last 24 h (" + expected + " from " + (expected.equals("critical") ? 10 : 3)
                    + "); times in the flap ledger", f.evidence());
            assertEquals(Map.of("flapsInWarningWindow", (double) inWarning, "flapsInCriticalWindow", (double) inCritical),
                    f.values());
        });
    }

    @Test
    void aSaturatedCounterIsNamedAsHidingFlaps() {
        Finding finding = new LinkFlapping().evaluate(new PortInput(device(port(0)), null, port(0), 0, null, 0,
                new PortInput.FlapCounts(4, 4, Set.of("link_downed"))), CONFIG).orElseThrow();

        assertTrue(finding.evidence().startsWith("the link went down 4 time(s)"), finding.evidence());
        assertTrue(finding.evidence().endsWith("; link_downed stuck at 255, so more flaps may be hidden"),
                finding.evidence());
    }

    @Test
    void theThresholdsAreConfigurable() {
        DiagnosisConfig.LinkFlapping strict = new DiagnosisConfig.LinkFlapping(1, Duration.ofMinutes(1), 2,
                Duration.ofHours(1));
        DiagnosisConfig config = DiagnosisConfig.defaults().toBuilder().minRdmaBytesPerSecond(0).linkFlapping(strict)
                .build();

        Finding finding = new LinkFlapping().evaluate(input(new PortInput.FlapCounts(1, 1, Set.of())), config)
                .orElseThrow();

        assertEquals(Severity.WARNING, finding.severity());
        assertTrue(finding.evidence().contains("in the last 1 min and 1 in the last 1 h (warning from 1)"),
                finding.evidence());
    }

    /** The engine enters each flap into the ledger, warns at the third within 10 min and escalates at the tenth. */
    @Test
    void theEngineKeepsTheLedgerWarnsAndEscalatesToCritical() {
        AtomicLong clock = new AtomicLong(1_700_000_000_000L);
        NodeStore store = new NodeStore(clock::get, 3, Long.MAX_VALUE / 2, 10, 1000);
        DiagnosisEngine engine = new DiagnosisEngine(CONFIG, store, clock::get);
        store.connect("n4", "test", 1000);
        long downs = 17;
        deliver(store, engine, sample(clock.addAndGet(1000), downs));
        for (int flap = 1; flap <= 10; flap++) {
            // one flap every 4 minutes: the third is the third within 10 minutes, the tenth the tenth within 24 h
            clock.addAndGet(Duration.ofMinutes(4).toMillis());
            deliver(store, engine, sample(clock.get(), ++downs));
            Optional<Diagnosis> flapping = engine.snapshot().diagnoses().stream()
                    .filter(d -> d.rule() == Rule.LINK_FLAPPING).findFirst();
            assertEquals(flap < 3 ? "none" : flap < 10 ? "warning" : "critical",
                    flapping.map(d -> d.severity().id()).orElse("none"), "after flap " + flap);
        }

        List<PortFlaps> ledger = engine.flapLedger("n4");
        assertEquals(1, ledger.size());
        assertEquals("mlx5_2", ledger.get(0).device());
        assertEquals(2, ledger.get(0).port());
        List<FlapLedger.Entry> entries = ledger.get(0).entries();
        assertEquals(10, entries.size());
        for (int i = 0; i < entries.size(); i++) {
            assertEquals(1_700_000_001_000L + (i + 1) * Duration.ofMinutes(4).toMillis(), entries.get(i).timestampMillis());
            assertEquals(1, entries.get(i).flaps());
        }
        assertEquals(List.of(), engine.flapLedger("unknown"));
    }

    private static Optional<Finding> evaluate(PortInput.FlapCounts counts) {
        return new LinkFlapping().evaluate(input(counts), CONFIG);
    }

    private static PortInput input(PortInput.FlapCounts counts) {
        IbPort port = port(1);
        return new PortInput(device(port), null, port, 0, null, 0, counts);
    }

    private static IbPort port(long carrierDowns) {
        return IbPort.builder().port(2).stateId(4).state("ACTIVE").physStateId(5).physState("LinkUp")
                .linkLayer("Ethernet").lid("0x0").netdev(counters(carrierDowns).isEmpty() ? null : "ens7f1np1")
                .netdevCounters(counters(carrierDowns)).build();
    }

    private static Map<String, Long> counters(long carrierDowns) {
        return carrierDowns == 0 ? Map.of() : Map.of("carrier_down_count", carrierDowns, "carrier_up_count", carrierDowns);
    }

    private static IbDevice device(IbPort port) {
        return new IbDevice("mlx5_2", 1, "CA", null, null, "x", "MT4129", null, List.of(port));
    }

    private static HostSample sample(long timestamp, long carrierDowns) {
        return new HostSample("n4", timestamp, List.of(device(port(carrierDowns))),
                List.of(SourceStatus.ok("sysfs", "mlx5_2")));
    }

    private static void deliver(NodeStore store, DiagnosisEngine engine, HostSample sample) {
        assertEquals(NodeStore.Ingest.APPLIED, store.accept(sample));
        engine.accept(sample);
    }
}
