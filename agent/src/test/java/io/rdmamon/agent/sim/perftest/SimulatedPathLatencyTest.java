package io.rdmamon.agent.sim.perftest;

import io.rdmamon.agent.sim.FabricSimulator;
import io.rdmamon.agent.sim.Scenario;
import io.rdmamon.agent.sim.SimulationSpec;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The simulated fabric's round trips: the leaves set the base, and in tor-uplink-loss only the pairs across
 * leaf-01's uplink lose exchanges to a retransmission, at about 10 %, while leaf-01's nodes count retransmissions.
 * Seeded: the counts are the same every run.
 */
class SimulatedPathLatencyTest {
    private static final int EXCHANGES = 4_000;
    /** -u 14, perftest's default: 4.096 µs × 2^14. */
    private static final int QP_TIMEOUT = 14;
    private static final double RETRANSMISSION_MICROS = 4.096 * (1 << QP_TIMEOUT);

    @TempDir
    static Path trees;
    private static FabricSimulator lossy;
    private static FabricSimulator healthy;

    @BeforeAll
    static void fleets() throws IOException {
        // 8 nodes: RoCE 1-6 under leaf-01..03, InfiniBand 7 and eRDMA 8 under leaf-04
        lossy = FabricSimulator.create(trees.resolve("lossy"), new SimulationSpec(8, Scenario.TOR_UPLINK_LOSS, 42, 3));
        healthy = FabricSimulator.create(trees.resolve("healthy"), new SimulationSpec(8, Scenario.HEALTHY, 42, 3));
    }

    @AfterAll
    static void close() {
        lossy.close();
        healthy.close();
    }

    private static Path root(FabricSimulator simulator, int nodeIndex) {
        return simulator.nodes().get(nodeIndex - 1).hostRoot();
    }

    private static List<Double> roundTrips(FabricSimulator simulator, int client, int server, long run) {
        return SimulatedPathLatency.of(simulator).roundTripsMicros(root(simulator, client), root(simulator, server),
                EXCHANGES, QP_TIMEOUT, run);
    }

    private static long retransmissions(List<Double> roundTrips) {
        return roundTrips.stream().filter(rtt -> rtt > RETRANSMISSION_MICROS).count();
    }

    @Test
    void pairsAcrossLeafOnesUplinkWaitOutARetransmissionAboutThreePercentOfTheTime() {
        for (int[] pair : new int[][]{{1, 3}, {2, 5}, {4, 1}, {6, 2}, {1, 7}}) {
            long lost = retransmissions(roundTrips(lossy, pair[0], pair[1], 18_600 + pair[0]));
            double rate = (double) lost / EXCHANGES;
            assertTrue(rate > 0.08 && rate < 0.12, "node " + pair[0] + " to " + pair[1] + ": " + lost + " of " + EXCHANGES);
        }
    }

    @Test
    void pairsUnderLeafOneAndAmongTheOtherLeavesStayClean() {
        for (int[] pair : new int[][]{{1, 2}, {2, 1}, {3, 4}, {3, 5}, {6, 4}, {5, 7}}) {
            assertEquals(0, retransmissions(roundTrips(lossy, pair[0], pair[1], 18_700)), pair[0] + " to " + pair[1]);
        }
        assertEquals(0, retransmissions(roundTrips(healthy, 1, 3, 18_700)), "healthy: leaf-01's uplink is clean");
        assertFalse(SimulatedPathLatency.of(lossy).lossy(root(lossy, 3), root(lossy, 5)));
        assertTrue(SimulatedPathLatency.of(lossy).lossy(root(lossy, 5), root(lossy, 2)));
    }

    @Test
    void oneSwitchUnderALeafIsFasterThanThreeAcrossLeavesWithSmallJitter() {
        for (double rtt : roundTrips(healthy, 1, 2, 18_800)) {
            assertTrue(rtt >= 2 * 2.5 * 0.96 && rtt <= 2 * 2.5 * 1.04, "same leaf " + rtt);
        }
        for (double rtt : roundTrips(healthy, 1, 3, 18_800)) {
            assertTrue(rtt >= 2 * 4.0 * 0.96 && rtt <= 2 * 4.0 * 1.04, "across leaves " + rtt);
        }
        assertEquals(roundTrips(healthy, 1, 3, 18_800), roundTrips(healthy, 1, 3, 18_800), "seeded");
    }

    @Test
    void theNodesUnderLeafOneCountTheRetransmissionsAndTheOthersDoNot() throws IOException {
        long[] before = {outOfSequence(1), outOfSequence(2), outOfSequence(3), outOfSequence(6)};
        lossy.advance(Duration.ofSeconds(5));
        assertTrue(outOfSequence(1) > before[0] && outOfSequence(2) > before[1], "leaf-01's nodes");
        assertEquals(before[2], outOfSequence(3));
        assertEquals(before[3], outOfSequence(6));
    }

    private static long outOfSequence(int nodeIndex) throws IOException {
        return Long.parseLong(Files.readString(root(lossy, nodeIndex)
                .resolve("sys/class/infiniband/mlx5_0/ports/1/hw_counters/out_of_sequence")).strip());
    }

    @Test
    void theQpTimeoutSetsWhatARetransmissionCosts() {
        List<Double> fast = SimulatedPathLatency.of(lossy).roundTripsMicros(root(lossy, 1), root(lossy, 3), EXCHANGES,
                4, 18_900);
        double worst = fast.stream().mapToDouble(Double::doubleValue).max().orElseThrow();
        // -u 4: 65.5 µs on top of a cross-leaf round trip of about 8 µs
        assertTrue(worst > 4.096 * 16 && worst < 4.096 * 16 + 9, "worst " + worst);
    }
}
