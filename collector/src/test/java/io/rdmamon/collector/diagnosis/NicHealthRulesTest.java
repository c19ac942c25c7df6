package io.rdmamon.collector.diagnosis;

import io.rdmamon.collector.diagnosis.engine.DiagnosisEngine;
import io.rdmamon.collector.store.NodeStore;
import io.rdmamon.protocol.model.HostSample;
import io.rdmamon.protocol.model.IbDevice;
import io.rdmamon.protocol.model.IbPort;
import io.rdmamon.protocol.model.KernelEvents;
import io.rdmamon.protocol.model.NicHealthReporter;
import io.rdmamon.protocol.model.SourceStatus;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The NIC health rules read from the kernel log (raised by a count that rose on the port, quoting the line) and from
 * the devlink health reporters (a reporter in error, or one whose error count rose).
 */
class NicHealthRulesTest {
    private static final String FATAL = "mlx5_core 0000:3b:00.0: poll_health:852:(pid 0): device's health compromised"
            + " - reached miss count";

    private final AtomicLong clock = new AtomicLong(1_700_000_000_000L);
    private final NodeStore store = new NodeStore(clock::get, 3, Long.MAX_VALUE / 2, 10, 1000);
    private final DiagnosisEngine engine = new DiagnosisEngine(DiagnosisConfig.defaults(), store, clock::get);

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "firmware_fatal|nic_firmware_fatal critical",
            "tx_timeout|nic_tx_timeout warning",
            "command_timeout|nic_command_timeout warning",
            "pcie_power_insufficient|nic_pcie_power_insufficient warning"})
    void aRiseOfTheKindOnThePortRaisesItsRule(String kind, String diagnosis) {
        store.connect("n", "test", 1000);
        deliver(events(kind, "mlx5_0", 0, List.of()));
        deliver(events(kind, "mlx5_0", 0, List.of()));
        assertEquals(List.of(), active());
        deliver(events(kind, "mlx5_0", 1, List.of(event(kind, "mlx5_0", FATAL))));
        assertEquals(List.of(diagnosis), active());
        String evidence = engine.snapshot().diagnoses().get(0).evidence();
        assertTrue(evidence.contains("\"" + FATAL + "\""), evidence);
    }

    @Test
    void staysTenMinutesWithoutAnotherLine() {
        store.connect("n", "test", 1000);
        deliver(events("firmware_fatal", "mlx5_0", 0, List.of()));
        KernelEvents one = events("firmware_fatal", "mlx5_0", 1, List.of(event("firmware_fatal", "mlx5_0", FATAL)));
        deliver(one);
        for (int i = 0; i < 599; i++) {
            deliver(one);
        }
        assertEquals(List.of("nic_firmware_fatal critical"), active());
        deliver(one);
        assertEquals(List.of(), active());
    }

    @Test
    void aLineOnAnotherDeviceOrAFirstReportRaisesNothing() {
        store.connect("n", "test", 1000);
        // the first report is the baseline: counts from before the collector watched
        deliver(events("firmware_fatal", "mlx5_0", 3, List.of(event("firmware_fatal", "mlx5_0", FATAL))));
        deliver(events("firmware_fatal", "mlx5_9", 1, List.of(event("firmware_fatal", "mlx5_9", FATAL))));
        assertEquals(List.of(), active());
    }

    /** fw_fatal in error: both rules, the evidence naming the reporter and its counts; recovered: both clear. */
    @Test
    void aFwFatalReporterInErrorRaisesFirmwareFatalAndReporterError() {
        store.connect("n", "test", 1000);
        deliverHealth(List.of(reporter("fw_fatal", "", "healthy", 0, 0)));
        assertEquals(List.of(), active());
        deliverHealth(List.of(reporter("fw_fatal", "", "error", 1, 0)));
        assertEquals(List.of("nic_firmware_fatal critical", "nic_health_reporter_error warning"), active());
        String evidence = engine.snapshot().diagnoses().get(0).evidence();
        assertEquals("devlink health on mlx5_0: reporter fw_fatal (pci/0000:3b:00.0) error, 1 errors (+1 since the"
                + " previous sample), 0 recovers", evidence);
    }

    /** A port reporter whose count rose while it recovered (healthy again) raises reporter error only. */
    @Test
    void aRisingErrorCountOnAHealthyReporterRaisesReporterError() {
        store.connect("n", "test", 1000);
        deliverHealth(List.of(reporter("tx", "1", "healthy", 2, 2)));
        deliverHealth(List.of(reporter("tx", "1", "healthy", 2, 2)));
        assertEquals(List.of(), active(), "errors counted before the collector watched are a baseline");
        deliverHealth(List.of(reporter("tx", "1", "healthy", 3, 3), reporter("rx", "2", "error", 1, 0)));
        assertEquals(List.of("nic_health_reporter_error warning"), active());
        String evidence = engine.snapshot().diagnoses().get(0).evidence();
        assertTrue(evidence.contains("reporter tx (pci/0000:3b:00.0/65535) healthy, 3 errors (+1 since the previous"
                + " sample), 3 recovers"), evidence);
        assertTrue(!evidence.contains("rx"), "a reporter of another port is not this port's: " + evidence);
    }

    private void deliverHealth(List<NicHealthReporter> reporters) {
        HostSample sample = new HostSample("n", clock.addAndGet(1000), List.of(device()),
                List.of(SourceStatus.ok("sysfs", "mlx5_0")), null, null, null, reporters);
        assertEquals(NodeStore.Ingest.APPLIED, store.accept(sample));
        engine.accept(sample);
    }

    private static NicHealthReporter reporter(String name, String port, String state, long errors, long recovers) {
        return new NicHealthReporter("mlx5_0", port, "pci/0000:3b:00.0" + (port.isEmpty() ? "" : "/65535"), name, state,
                errors, recovers, null);
    }

    private List<String> active() {
        return engine.snapshot().diagnoses().stream().map(d -> d.rule().id() + " " + d.severity().id()).toList();
    }

    private void deliver(KernelEvents kernel) {
        HostSample sample = new HostSample("n", clock.addAndGet(1000), List.of(device()),
                List.of(SourceStatus.ok("sysfs", "mlx5_0")), null, null, kernel);
        assertEquals(NodeStore.Ingest.APPLIED, store.accept(sample));
        engine.accept(sample);
    }

    private static KernelEvents events(String kind, String device, long total, List<KernelEvents.Event> recent) {
        List<KernelEvents.Count> counts = new ArrayList<>();
        if (total > 0) {
            counts.add(new KernelEvents.Count(kind, "critical", device, "1", total));
        }
        return new KernelEvents(1, 0, counts, recent);
    }

    private static KernelEvents.Event event(String kind, String device, String text) {
        return new KernelEvents.Event(9, 0, 9, 2, kind, "critical", device, "1", text);
    }

    private static IbDevice device() {
        IbPort port = IbPort.builder().port(1).stateId(4).state("ACTIVE").physStateId(5).physState("LinkUp")
                .linkLayer("InfiniBand").lid("0x7").build();
        return new IbDevice("mlx5_0", 1, "CA", null, null, "x", "MT4129", null, List.of(port));
    }
}
