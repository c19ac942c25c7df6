package io.rdmamon.collector.diagnosis;

import io.rdmamon.collector.diagnosis.engine.DiagnosisEngine;
import io.rdmamon.collector.store.NodeStore;
import io.rdmamon.protocol.model.HostSample;
import io.rdmamon.protocol.model.IbDevice;
import io.rdmamon.protocol.model.IbPort;
import io.rdmamon.protocol.model.KernelEvents;
import io.rdmamon.protocol.model.SourceStatus;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The NIC health rules read from the kernel log: raised by a count that rose on the port, quoting the line. */
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
