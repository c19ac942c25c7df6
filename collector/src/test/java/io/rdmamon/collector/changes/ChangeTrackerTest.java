package io.rdmamon.collector.changes;

import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.rdmamon.collector.SeriesValue;
import io.rdmamon.collector.diagnosis.DiagnosisConfig;
import io.rdmamon.collector.diagnosis.engine.DiagnosisEngine;
import io.rdmamon.collector.store.NodeStore;
import io.rdmamon.collector.store.NodeView;
import io.rdmamon.protocol.model.HostSample;
import io.rdmamon.protocol.model.IbDevice;
import io.rdmamon.protocol.model.IbPort;
import io.rdmamon.protocol.model.KernelEvents;
import io.rdmamon.protocol.model.NicHealthReporter;
import io.rdmamon.protocol.model.QosConfig;
import io.rdmamon.protocol.model.TransceiverModule;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * {@link ChangeTracker} fed as the collector feeds it (the store applies a sample, the engine judges it, then the
 * tracker looks): a flap, a module swap, the node going stale, and a reboot that comes back with another QoS.
 */
class ChangeTrackerTest {
    private final AtomicLong clock = new AtomicLong(1_764_000_000_000L);
    private final NodeStore store = new NodeStore(clock::get, 3, Long.MAX_VALUE / 2, 10, 1000);
    private final DiagnosisEngine engine = new DiagnosisEngine(DiagnosisConfig.defaults(), store, clock::get);
    private final ChangeLog log = new ChangeLog();
    private final PrometheusRegistry registry = new PrometheusRegistry();
    private final ChangeTracker tracker = new ChangeTracker(log, store, engine, clock::get).register(registry);

    @Test
    void aFlapASwapAStaleNodeAndARebootAreOneTimeline() {
        deliver(sample(4, "MT2310FT00123", 0b1000), "run-1", 1);
        deliver(sample(5, "MT2310FT00123", 0b1000), "run-1", 2);
        deliver(sample(5, "MT2402FT00999", 0b1000), "run-1", 3);
        HostSample last = store.lastSamples("gpu-01").orElseThrow().last();
        clock.addAndGet(60_000);
        engine.sweep(List.of(new NodeView("gpu-01", "test", 1000, false, 0, clock.get(), last.timestampMillis(), last,
                null)));
        tracker.diagnoses();
        // the reboot: counters start again (a new baseline, no flap), PFC moved from priority 3 to 4
        deliver(sample(0, "MT2402FT00999", 0b1_0000), "run-2", 1);

        assertEquals(List.of(
                        "diagnosis_cleared info -/0 agent_stale cleared",
                        "qos_change warning mlx5_0/1 QoS pfc: Pfc[capability=8, enabledMask=8, delay=0]"
                                + " → Pfc[capability=8, enabledMask=16, delay=0]",
                        "agent_restart info -/0 agent restarted (run run-1 → run-2)",
                        "diagnosis_raised warning -/0 agent_stale",
                        "module_swapped info mlx5_0/1 module swapped: NVIDIA MMA4Z00-NS serial MT2310FT00123"
                                + " → NVIDIA MMA4Z00-NS serial MT2402FT00999",
                        "link_flap warning mlx5_0/1 1 flap(s) on eth0: carrier_down_count 4 → 5"),
                log.newest("gpu-01", c -> true, 0, 10).stream().map(e -> line(e.change())).toList());
        assertEquals(1.0, SeriesValue.of(registry, "rdma_node_changes_total{kind=\"module_swapped\",node=\"gpu-01\"}"));
        assertEquals(6.0, SeriesValue.of(registry, "rdmamon_collector_changes_held"));

        tracker.forget("gpu-01");
        assertEquals(0.0, SeriesValue.of(registry, "rdma_node_changes_total{kind=\"module_swapped\",node=\"gpu-01\"}"));
        assertEquals(6, log.size(), "an expired node's history stays");
    }

    /** Each kernel record the store hands over once is one entry, on the port the agent placed it on. */
    @Test
    void kernelRecordsAreEntriesOnTheirPort() {
        tracker.kernelEvents("gpu-01", List.of(
                new KernelEvents.Event(7, 1_000, 5, 2, "firmware_fatal", "critical", "mlx5_0", "1",
                        "mlx5_core 0000:3b:00.0: device's health compromised - reached miss count"),
                new KernelEvents.Event(8, 2_000, 6, 3, "pcie_aer_corrected", "novel", "", "", "PCIe Bus Error: severity=Corrected")));

        assertEquals(List.of("kernel_event info -/0 pcie_aer_corrected: PCIe Bus Error: severity=Corrected",
                        "kernel_event critical mlx5_0/1 firmware_fatal: mlx5_core 0000:3b:00.0: device's health compromised"
                                + " - reached miss count"),
                log.newest("gpu-01", c -> true, 0, 10).stream().map(e -> line(e.change())).toList());
    }

    /** A reporter's transitions between samples are entries: into error (critical for fw_fatal) and back (info). */
    @Test
    void devlinkReporterTransitionsAreEntries() {
        deliver(sample(4, "MT2310FT00123", 0b1000), "run-1", 1); // no reporters yet: nothing to compare with
        deliver(sample(4, "MT2310FT00123", 0b1000).withHealth(List.of(fwFatal("healthy", 0))), "run-1", 2);
        deliver(sample(4, "MT2310FT00123", 0b1000).withHealth(List.of(fwFatal("error", 1))), "run-1", 3);
        deliver(sample(4, "MT2310FT00123", 0b1000).withHealth(List.of(fwFatal("error", 1))), "run-1", 4);
        deliver(sample(4, "MT2310FT00123", 0b1000).withHealth(List.of(fwFatal("healthy", 1))), "run-1", 5);

        assertEquals(List.of(
                        "devlink_reporter info mlx5_0/0 devlink health pci/0000:3b:00.0 reporter fw_fatal: error →"
                                + " healthy (errors 1, recovers 1)",
                        "devlink_reporter critical mlx5_0/0 devlink health pci/0000:3b:00.0 reporter fw_fatal: healthy →"
                                + " error (errors 1, recovers 0)"),
                log.newest("gpu-01", c -> c.kind() == ChangeKind.DEVLINK_REPORTER, 0, 10).stream()
                        .map(e -> line(e.change())).toList());
    }

    private static NicHealthReporter fwFatal(String state, long errors) {
        return new NicHealthReporter("mlx5_0", "", "pci/0000:3b:00.0", "fw_fatal", state, errors,
                "healthy".equals(state) ? errors : 0, 60_000L);
    }

    private void deliver(HostSample sample, String instance, long seq) {
        if (store.node(sample.node()).isEmpty()) {
            store.connect(sample.node(), "test", 1000);
        }
        assertEquals(NodeStore.Ingest.APPLIED, store.accept(sample, instance, seq));
        engine.accept(sample);
        tracker.accept(sample);
    }

    private HostSample sample(long carrierDowns, String serial, int pfcMask) {
        IbPort port = IbPort.builder().port(1).stateId(4).state("ACTIVE").physStateId(5).physState("LinkUp")
                .netdev("eth0").netdevCounters(Map.of("carrier_down_count", carrierDowns))
                .module(new TransceiverModule("CMIS", 0x18, "OSFP", "NVIDIA", "MMA4Z00-NS", "A1", serial, "230310",
                        40.0, 3.3, List.of(), null, List.of()))
                .qos(new QosConfig(QosConfig.SOURCE_NETLINK, null, new QosConfig.Pfc(8, pfcMask, 0), null, List.of(),
                        null, null, null, null, null, null))
                .build();
        return new HostSample("gpu-01", clock.addAndGet(1000), List.of(new IbDevice("mlx5_0", 1, "CA", "0x1", "0x1",
                "28.39.1002", "MT4129", null, List.of(port))), List.of(), null);
    }

    private static String line(Change c) {
        String text = c.text().contains(" raised: ") ? c.text().substring(0, c.text().indexOf(" raised: ")) : c.text();
        return c.kind().id() + " " + c.severity().id() + " " + (c.device() == null ? "-" : c.device()) + "/" + c.port()
                + " " + text;
    }
}
