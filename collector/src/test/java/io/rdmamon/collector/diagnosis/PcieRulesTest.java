package io.rdmamon.collector.diagnosis;

import io.rdmamon.collector.diagnosis.engine.DiagnosisEngine;
import io.rdmamon.collector.diagnosis.rules.PcieDegraded;
import io.rdmamon.collector.diagnosis.rules.PcieErrors;
import io.rdmamon.collector.store.NodeStore;
import io.rdmamon.protocol.model.HostSample;
import io.rdmamon.protocol.model.IbDevice;
import io.rdmamon.protocol.model.IbPort;
import io.rdmamon.protocol.model.PciFunction;
import io.rdmamon.protocol.model.SourceStatus;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** pcie_degraded and pcie_errors on the PCI function of a port's device, and pcie_errors' event window. */
class PcieRulesTest {
    private static final DiagnosisConfig CONFIG = DiagnosisConfig.defaults();

    @ParameterizedTest(name = "{0} x{1} of {2} x{3}")
    @CsvSource(nullValues = "null", value = {
            "16.0 GT/s PCIe, 8, 16.0 GT/s PCIe, 16, 'PCIe 0000:c3:00.0 trained at 16.0 GT/s PCIe x8, can do 16.0 GT/s PCIe x16: the host caps the NIC''s bandwidth'",
            "8.0 GT/s PCIe, 16, 16.0 GT/s PCIe, 16, 'PCIe 0000:c3:00.0 trained at 8.0 GT/s PCIe x16, can do 16.0 GT/s PCIe x16: the host caps the NIC''s bandwidth'",
            "16.0 GT/s PCIe, 16, 16.0 GT/s PCIe, 16, null",
            "Unknown, 16, 16.0 GT/s PCIe, 16, null",
            "16.0 GT/s PCIe, null, 16.0 GT/s PCIe, 16, null"})
    void degradedWhenTrainedBelowTheMaximum(String speed, Integer width, String maxSpeed, Integer maxWidth,
                                            String evidence) {
        PciFunction pci = new PciFunction("0000:c3:00.0", null, "0000:c3:00.0", speed, maxSpeed, transfers(speed),
                transfers(maxSpeed), width, maxWidth, Map.of(), List.of());

        Optional<Finding> finding = new PcieDegraded().evaluate(input(pci, null), CONFIG);

        assertEquals(Optional.ofNullable(evidence), finding.map(Finding::evidence));
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', nullValues = "null", value = {
            "5 0 0 -> 7 0 0|warning|PCIe 0000:c3:00.0 reported AER errors since the previous sample: 2 correctable (corrected by the link)",
            "5 0 0 -> 5 1 0|critical|PCIe 0000:c3:00.0 reported AER errors since the previous sample: 1 nonfatal (uncorrectable: transactions lost)",
            "5 0 0 -> 6 0 1|critical|PCIe 0000:c3:00.0 reported AER errors since the previous sample: 1 correctable, 1 fatal (uncorrectable: transactions lost)",
            "5 0 0 -> 5 0 0|null|null",
            "5 3 0 -> 0 0 0|null|null"})
    void errorsWhenAnAerCounterRose(String counters, String severity, String evidence) {
        String[] fromTo = counters.split(" -> ");
        Optional<Finding> finding = new PcieErrors().evaluate(input(pci(fromTo[1]), pci(fromTo[0])), CONFIG);

        assertEquals(Optional.ofNullable(evidence), finding.map(Finding::evidence));
        assertEquals(Optional.ofNullable(severity), finding.map(f -> f.severity().id()));
    }

    @Test
    void noErrorsWithoutAPreviousFunctionOrAcrossAnotherFunction() {
        assertEquals(Optional.empty(), new PcieErrors().evaluate(input(pci("9 9 9"), null), CONFIG));
        PciFunction other = new PciFunction("0000:c4:00.0", null, "0000:c4:00.0", null, null, null, null, null, null,
                aer("0 0 0"), List.of());
        assertEquals(Optional.empty(), new PcieErrors().evaluate(input(pci("9 9 9"), other), CONFIG));
    }

    /** One correctable error raises at once and the diagnosis stays for 60 samples without another, then clears. */
    @Test
    void anErrorIsAnEventThatStaysAMinute() {
        AtomicLong clock = new AtomicLong(1_700_000_000_000L);
        NodeStore store = new NodeStore(clock::get, 3, Long.MAX_VALUE / 2, 10, 1000);
        DiagnosisEngine engine = new DiagnosisEngine(CONFIG, store, clock::get);
        store.connect("n8", "test", 1000);
        deliver(store, engine, clock.addAndGet(1000), "3 0 0");
        deliver(store, engine, clock.addAndGet(1000), "4 0 0");
        assertEquals(List.of("pcie_errors warning"), active(engine));
        for (int i = 0; i < 59; i++) {
            deliver(store, engine, clock.addAndGet(1000), "4 0 0");
        }
        assertEquals(List.of("pcie_errors warning"), active(engine));
        deliver(store, engine, clock.addAndGet(1000), "4 0 0");
        assertEquals(List.of(), active(engine));
    }

    private static List<String> active(DiagnosisEngine engine) {
        return engine.snapshot().diagnoses().stream().map(d -> d.rule().id() + " " + d.severity().id()).toList();
    }

    private static void deliver(NodeStore store, DiagnosisEngine engine, long timestamp, String counters) {
        HostSample sample = new HostSample("n8", timestamp, List.of(device(pci(counters))),
                List.of(SourceStatus.ok("sysfs", "mlx5_3")));
        assertEquals(NodeStore.Ingest.APPLIED, store.accept(sample));
        engine.accept(sample);
    }

    private static PortInput input(PciFunction now, PciFunction before) {
        IbDevice device = device(now);
        IbPort port = device.ports().get(0);
        return new PortInput(device, port, port, 1000, null, 0, null, before);
    }

    private static IbDevice device(PciFunction pci) {
        IbPort port = IbPort.builder().port(1).stateId(4).state("ACTIVE").physStateId(5).physState("LinkUp")
                .linkLayer("InfiniBand").lid("0x7").build();
        return new IbDevice("mlx5_3", 1, "CA", null, null, "x", "MT4129", null, List.of(port), pci);
    }

    private static PciFunction pci(String counters) {
        return new PciFunction("0000:c3:00.0", null, "0000:c3:00.0", "32.0 GT/s PCIe", "32.0 GT/s PCIe",
                32_000_000_000L, 32_000_000_000L, 16, 16, aer(counters), List.of());
    }

    /** "correctable nonfatal fatal" totals. */
    private static Map<String, Long> aer(String counters) {
        String[] values = counters.split(" ");
        Map<String, Long> aer = new LinkedHashMap<>();
        for (int i = 0; i < values.length; i++) {
            aer.put(PciFunction.AER_SEVERITIES.get(i), Long.parseLong(values[i]));
        }
        return aer;
    }

    private static Long transfers(String speed) {
        return speed == null || speed.startsWith("Unknown") ? null
                : Math.round(Double.parseDouble(speed.substring(0, speed.indexOf(' '))) * 1e9);
    }
}
