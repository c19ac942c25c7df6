package io.rdmamon.cli.daemon;

import io.rdmamon.agent.host.HostReader;
import io.rdmamon.agent.sim.FabricSimulator;
import io.rdmamon.agent.sim.Scenario;
import io.rdmamon.agent.sim.SimulatedNode;
import io.rdmamon.agent.sim.SimulationSpec;
import io.rdmamon.collector.changes.ChangeLog;
import io.rdmamon.collector.changes.ChangeTracker;
import io.rdmamon.collector.diagnosis.DiagnosisConfig;
import io.rdmamon.collector.diagnosis.engine.DiagnosisEngine;
import io.rdmamon.collector.store.NodeStore;
import io.rdmamon.protocol.model.HostSample;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The simulator's timed scenarios (docs/simulator.md) put their change on the collector's timeline: the faulty node
 * read through the real host reader every simulated second for 25 s, each read fed to the store, the diagnosis
 * engine and the change tracker as the collector feeds them.
 */
class TimedScenariosTimelineTest {
    private static final long START = 1_764_000_000_000L;

    @Test
    void moduleSwapLogsTheNewSerialOnTheLastPort(@TempDir Path dir) throws Exception {
        assertEquals(List.of("module_swapped mlx5_1/1: module swapped: NVIDIA MMA4Z00-NS400 serial MT"),
                timeline(dir, Scenario.MODULE_SWAP).stream().filter(line -> !line.startsWith("diagnosis_"))
                        .map(line -> line.replaceAll("serial MT[0-9A-F]{8}.*", "serial MT")).toList());
    }

    @Test
    void aRebootThatLostTheQosLogsTheFlapsAndEachQosKey(@TempDir Path dir) throws Exception {
        List<String> kinds = timeline(dir, Scenario.REBOOT_QOS).stream().filter(line -> !line.startsWith("diagnosis_"))
                .map(line -> line.substring(0, line.indexOf(':'))).distinct().toList();
        assertEquals(List.of("link_flap mlx5_0/1", "link_flap mlx5_1/1", "qos_change mlx5_0/1", "qos_change mlx5_1/1"),
                kinds.stream().sorted().toList());
    }

    /** The faulty node's timeline, oldest first, as "kind device/port text" lines. */
    private static List<String> timeline(Path dir, Scenario scenario) throws Exception {
        AtomicLong clock = new AtomicLong(START);
        NodeStore store = new NodeStore(clock::get, 3, Duration.ofHours(1).toMillis(), 10, 100);
        DiagnosisEngine engine = new DiagnosisEngine(DiagnosisConfig.defaults(), store, clock::get);
        ChangeLog log = new ChangeLog();
        ChangeTracker tracker = new ChangeTracker(log, store, engine, clock::get);
        FabricSimulator fabric = FabricSimulator.create(dir, SimulationSpec.of(2, scenario));
        try {
            SimulatedNode node = fabric.nodes().stream().filter(n -> n.fault() == scenario).findFirst().orElseThrow();
            HostReader reader = HostReader.forRoot(node.hostRoot());
            store.connect(node.name(), "test", 1000);
            for (int second = 0; second <= 25; second++) {
                if (second > 0) {
                    fabric.advance(Duration.ofSeconds(1));
                }
                HostSample read = reader.read(node.name());
                HostSample sample = new HostSample(read.node(), clock.addAndGet(1000), read.devices(), read.sources(),
                        read.ncclConf(), read.topology());
                assertEquals(NodeStore.Ingest.APPLIED, store.accept(sample));
                engine.accept(sample);
                tracker.accept(sample);
            }
            List<String> lines = new ArrayList<>(log.newest(node.name(), c -> true, 0, 100).stream()
                    .map(e -> e.change().kind().id() + " " + e.change().device() + "/" + e.change().port() + ": "
                            + e.change().text()).toList());
            Collections.reverse(lines);
            return lines;
        } finally {
            fabric.deleteTrees();
        }
    }
}
