package io.rdmamon.agent.sim;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static io.rdmamon.agent.sim.Trees.counter;
import static io.rdmamon.agent.sim.Trees.ethtool;
import static io.rdmamon.agent.sim.Trees.snapshot;
import static io.rdmamon.protocol.testing.Waits.waitFor;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** How the trees change over time: monotonic counters, consistent units, determinism, atomic files. */
class FabricSimulatorDynamicsTest {
    /** Bounds waits that only a hung thread exceeds. */
    private static final Duration READ_LIMIT = Duration.ofSeconds(30);

    /** Every numeric counter of a tree (sysfs counter files and ethtool lines), by a stable key. */
    private static Map<String, Long> counters(Path root) {
        Map<String, Long> values = new TreeMap<>();
        snapshot(root).forEach((path, text) -> {
            if (path.contains("/counters/") || path.contains("/hw_counters/")) {
                values.put(path, Long.parseUnsignedLong(text.strip()));
            } else if (path.startsWith("ethtool/")) {
                String netdev = path.split("/")[1];
                ethtool(root, netdev).forEach((name, value) -> values.put(path + ":" + name, value));
            }
        });
        return values;
    }

    /** The simulator's own clock (rdmamon demo): it advances the fabric by itself until stopped, and once only. */
    @Test
    void theClockAdvancesTheFabricUntilStopped(@TempDir Path base) throws Exception {
        FabricSimulator fleet = FabricSimulator.create(base, SimulationSpec.of(1, Scenario.HEALTHY));
        List<Exception> failures = new CopyOnWriteArrayList<>();
        fleet.startClock(Duration.ofMillis(200), failures::add);
        assertThrows(IllegalStateException.class, () -> fleet.startClock(Duration.ofMillis(200), failures::add));
        waitFor(() -> !fleet.elapsed().isZero(), "the clock stepping the fabric");
        fleet.stopClock();
        Duration stopped = fleet.elapsed();
        fleet.advance(Duration.ofSeconds(1)); // exact steps still work, and nothing else steps now
        assertEquals(stopped.plusSeconds(1), fleet.elapsed());
        assertTrue(failures.isEmpty(), failures.toString());
        fleet.close();
        assertThrows(IllegalStateException.class, () -> fleet.startClock(Duration.ofMillis(200), failures::add));
    }

    @Test
    void countersNeverDecreaseAndTrafficCountersMove(@TempDir Path base) throws IOException {
        FabricSimulator fleet = FabricSimulator.create(base, SimulationSpec.of(3, Scenario.MIXED));
        for (SimulatedNode node : fleet.nodes()) {
            Map<String, Long> before = counters(node.hostRoot());
            for (int tick = 0; tick < 5; tick++) {
                fleet.advance(Duration.ofSeconds(1));
            }
            Map<String, Long> after = counters(node.hostRoot());
            assertEquals(before.keySet(), after.keySet(), node.name());
            before.forEach((key, value) -> assertTrue(Long.compareUnsigned(after.get(key), value) >= 0,
                    node.name() + " " + key + " went from " + value + " to " + after.get(key)));
            assertTrue(before.entrySet().stream().filter(e -> e.getKey().contains("bytes") || e.getKey().contains("_data"))
                    .anyMatch(e -> after.get(e.getKey()) > e.getValue()), node.name() + ": no byte counter moved");
        }
        assertEquals(Duration.ofSeconds(15), fleet.elapsed());
    }

    @Test
    void pmaDataCountersTimesFourMatchVportAndLosslessPriorityBytes(@TempDir Path base) throws IOException {
        FabricSimulator fleet = FabricSimulator.create(base, SimulationSpec.of(1, Scenario.HEALTHY));
        Path root = fleet.nodes().get(0).hostRoot();
        long xmitData = counter(root, "mlx5_0", "port_xmit_data");
        long rcvData = counter(root, "mlx5_0", "port_rcv_data");
        long xmitPackets = counter(root, "mlx5_0", "port_xmit_packets");
        Map<String, Long> stats = ethtool(root, "ens1f0np0");
        fleet.advance(Duration.ofMillis(1500));
        Map<String, Long> later = ethtool(root, "ens1f0np0");

        long txOctets = (counter(root, "mlx5_0", "port_xmit_data") - xmitData) * 4;
        long rxOctets = (counter(root, "mlx5_0", "port_rcv_data") - rcvData) * 4;
        long txVport = delta(stats, later, "tx_vport_rdma_unicast_bytes") + delta(stats, later, "tx_vport_rdma_multicast_bytes");
        long rxVport = delta(stats, later, "rx_vport_rdma_unicast_bytes") + delta(stats, later, "rx_vport_rdma_multicast_bytes");
        // octets / 4 truncates, so the difference of two truncated totals is within one word either way
        assertTrue(Math.abs(txVport - txOctets) < 4, txVport + " vs " + txOctets);
        assertTrue(Math.abs(rxVport - rxOctets) < 4, rxVport + " vs " + rxOctets);
        assertEquals(txVport, delta(stats, later, "tx_prio3_bytes"));
        assertEquals(rxVport, delta(stats, later, "rx_prio3_bytes"));
        // 1.5 s on 200 Gb/s at 0.5..97 % utilisation
        assertTrue(txVport > 0.005 * 25e9 * 1.5 && txVport < 25e9 * 1.5, "tx bytes " + txVport);
        assertEquals(delta(stats, later, "tx_vport_rdma_unicast_packets"),
                counter(root, "mlx5_0", "port_xmit_packets") - xmitPackets);
        assertEquals(delta(stats, later, "tx_vport_rdma_unicast_packets"), delta(stats, later, "tx_prio3_packets"));
    }

    private static long delta(Map<String, Long> before, Map<String, Long> after, String name) {
        return after.get(name) - before.get(name);
    }

    @Test
    void sameSeedAndStepsGiveIdenticalTreesAndAnotherSeedDoesNot(@TempDir Path base) throws IOException {
        List<Map<String, String>> trees = new ArrayList<>();
        for (long seed : new long[]{42, 42, 43}) {
            Path dir = base.resolve("run-" + trees.size());
            FabricSimulator fleet = FabricSimulator.create(dir, new SimulationSpec(3, Scenario.MIXED, seed, 3));
            fleet.advance(Duration.ofSeconds(1));
            fleet.advance(Duration.ofMillis(2500));
            trees.add(snapshot(dir));
        }
        assertEquals(trees.get(0), trees.get(1));
        assertEquals(trees.get(0).keySet(), trees.get(2).keySet(), "the layout does not depend on the seed");
        assertNotEquals(trees.get(0), trees.get(2));
    }

    @Test
    void concurrentReadersNeverSeeAPartialFile(@TempDir Path base) throws Exception {
        FabricSimulator fleet = FabricSimulator.create(base, SimulationSpec.of(3, Scenario.HEALTHY));
        Path roce = fleet.nodes().get(0).hostRoot();
        Path erdma = fleet.nodes().get(2).hostRoot();
        Path counters = Trees.port(roce, "mlx5_0").resolve("counters");
        AtomicBoolean done = new AtomicBoolean();
        AtomicInteger ticks = new AtomicInteger();
        ExecutorService ticker = Executors.newSingleThreadExecutor();
        try {
            Future<?> ticking = ticker.submit(() -> {
                while (!done.get()) {
                    fleet.advance(Duration.ofMillis(100));
                    ticks.incrementAndGet();
                }
                return null;
            });
            // reads overlap a few whole ticks, however slowly a loaded machine runs either thread; the limit only
            // ends a test whose ticker or reader hangs
            long deadline = System.nanoTime() + READ_LIMIT.toNanos();
            int reads = 0;
            while (ticks.get() < 3 || reads < 11) {
                assertTrue(System.nanoTime() < deadline, "within " + READ_LIMIT + ": ticks " + ticks + ", reads " + reads);
                Trees.counter(roce, "mlx5_0", "port_xmit_data");
                Trees.hw(roce, "mlx5_0", "np_ecn_marked_roce_packets");
                Trees.hw(erdma, "erdma_0", "tx_bytes_cnt");
                Map<String, Long> stats = ethtool(roce, "ens1f0np0");
                assertTrue(stats.containsKey("tx_pause_storm_error_events"), "ethtool text cut short");
                try (Stream<Path> names = Files.list(counters)) {
                    assertEquals(21, names.count(), "only the 21 counter files, never a temporary one");
                }
                reads++;
            }
            done.set(true);
            ticking.get(READ_LIMIT.toSeconds(), TimeUnit.SECONDS); // rethrows a failed write of the ticker
        } finally {
            done.set(true);
            ticker.shutdownNow();
        }
    }

    @Test
    void negativeStepIsRejected(@TempDir Path base) throws IOException {
        FabricSimulator fleet = FabricSimulator.create(base, SimulationSpec.of(1, Scenario.HEALTHY));
        IllegalArgumentException error = assertThrows(IllegalArgumentException.class,
                () -> fleet.advance(Duration.ofSeconds(-1)));
        assertTrue(error.getMessage().contains("negative"));
        Map<String, String> unchanged = snapshot(base);
        fleet.advance(Duration.ZERO);
        assertEquals(unchanged, snapshot(base));
        assertEquals(Duration.ZERO, fleet.elapsed());
        assertTrue(fleet.nodes().stream().map(SimulatedNode::name).collect(Collectors.toSet()).contains("gpu-node-001"));
    }
}
