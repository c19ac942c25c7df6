package io.rdmamon.collector.pingmesh;

import io.rdmamon.collector.model.PortKey;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PingmeshResultsTest {
    private static final double LOSS_RTT = 0.067108864;
    private static final MeshPort A = new MeshPort(new PortKey("a", "mlx5_0", 1), Fabric.ROCE, "leaf-01");
    private static final MeshPort B = new MeshPort(new PortKey("b", "mlx5_0", 1), Fabric.ROCE, "leaf-01");
    private static final MeshPort C = new MeshPort(new PortKey("c", "mlx5_0", 1), Fabric.ROCE, "leaf-02");
    private final PingmeshResults results = new PingmeshResults(Duration.ofSeconds(60), LOSS_RTT);

    /** 1..n microseconds, in nanoseconds. */
    private static List<Long> micros(int n) {
        List<Long> rtts = new ArrayList<>();
        for (int i = n; i >= 1; i--) { // unsorted on purpose
            rtts.add(i * 1000L);
        }
        return rtts;
    }

    /** {@code measured} after a first round trip as slow as the lab's warm-up, which must count nowhere. */
    private static List<Long> warmedUp(List<Long> measured) {
        List<Long> rtts = new ArrayList<>(List.of(1_300_000_000L));
        rtts.addAll(measured);
        return rtts;
    }

    @Test
    void theFirstRoundTripOfAProbeIsItsWarmUpAndCountsNowhere() {
        results.completed(A, B, 1_000, List.of(1_300_000_000L, 5_000L, 6_000L, 7_000L));
        PairStats stats = results.pairStats(1_000).get(0);
        assertEquals(3, stats.sent());
        assertEquals(0, stats.lost());
        assertEquals(7e-6, stats.p99Seconds(), 1e-12);
    }

    @Test
    void aRoundTripAtTheRetransmissionTimeoutIsLostOneBelowIsNot() {
        List<Long> rtts = new ArrayList<>(micros(18));
        rtts.add(67_108_864L); // exactly 4.096 µs × 2^14: waited for a retransmission
        rtts.add(67_108_863L);
        results.completed(A, B, 1_000, warmedUp(rtts));
        PairStats stats = results.pairStats(1_000).get(0);
        assertEquals(20, stats.sent());
        assertEquals(1, stats.lost());
        assertEquals(1, stats.probes());
        assertEquals(0, stats.failedProbes());
        assertEquals("leaf-01", stats.srcGroup());
    }

    @Test
    void quantilesAreNearestRankOverEveryProbeOfThePairInTheWindow() {
        results.completed(A, B, 1_000, warmedUp(micros(50)));
        results.completed(A, B, 2_000, warmedUp(micros(50).stream().map(n -> n + 50_000).toList())); // 51..100 µs
        PairStats stats = results.pairStats(2_000).get(0);
        assertEquals(100, stats.sent());
        assertEquals(50e-6, stats.p50Seconds(), 1e-12);
        assertEquals(99e-6, stats.p99Seconds(), 1e-12);
        assertEquals(2, stats.probes());
        List<ProbePoint> history = results.history(new PingmeshResults.Pair(A.key(), B.key()));
        assertEquals(25e-6, history.get(0).p50Seconds(), 1e-12);
        assertEquals(50e-6, history.get(0).p99Seconds(), 1e-12);
    }

    @Test
    void aFailedProbeLosesAllItsIterationsASkippedOneCountsNowhere() {
        results.unreachable(A, B, 1_000, 20, false, "perftest exited 1: Couldn't connect");
        results.skipped(A, B, 1_500, "mlx5_0 port 1 is already in probe pr-1");
        results.skipped(A, C, 1_500, "probes disabled");
        List<PairStats> stats = results.pairStats(2_000);
        assertEquals(1, stats.size(), "a pair with only skipped probes has no statistics");
        assertEquals(new PairStats(A.key(), B.key(), "leaf-01", "leaf-01", 20, 20, Double.NaN, Double.NaN, 1, 1),
                stats.get(0));
        List<ProbePoint> history = results.history(new PingmeshResults.Pair(A.key(), B.key()));
        assertEquals(2, history.size());
        assertTrue(history.get(0).failed());
        assertTrue(history.get(1).skipped());
        assertEquals("mlx5_0 port 1 is already in probe pr-1", history.get(1).error());
        assertEquals(Map.of(new PingmeshResults.Pair(A.key(), B.key()), 1_000L), results.lastProbeMillis(2_000));
    }

    @Test
    void probesLeaveTheWindowThenTheHistory() {
        results.completed(A, B, 0, warmedUp(micros(20)));
        results.completed(A, B, 30_000, warmedUp(micros(10)));
        assertEquals(30, results.pairStats(59_000).get(0).sent());
        assertEquals(10, results.pairStats(60_001).get(0).sent(), "the first probe left the window");
        results.expire(60_001);
        List<ProbePoint> history = results.history(new PingmeshResults.Pair(A.key(), B.key()));
        assertEquals(2, history.size(), "the history keeps it");
        assertNull(history.get(0).rttNanos(), "without its round trips");
        assertEquals(10e-6, history.get(0).p50Seconds(), 1e-12);
        assertEquals(List.of(), results.pairStats(90_001), "nothing in the window");
        results.expire(30_000 + PingmeshResults.HISTORY_WINDOWS * 60_000L + 1);
        assertEquals(List.of(), results.history(new PingmeshResults.Pair(A.key(), B.key())), "forgotten");
    }

    @Test
    void theHistoryKeepsTheLastThirtyProbes() {
        for (int i = 0; i < 35; i++) {
            results.completed(A, B, i, warmedUp(micros(5)));
        }
        List<ProbePoint> history = results.history(new PingmeshResults.Pair(A.key(), B.key()));
        assertEquals(PingmeshResults.HISTORY_POINTS, history.size());
        assertEquals(5, history.get(0).timestampMillis());
    }

    @Test
    void aggregatesCountAProbeAtBothEndsByScopeAndPerGroupPair() {
        results.completed(A, B, 1_000, warmedUp(micros(10))); // own group
        results.completed(A, C, 1_000, warmedUp(micros(10))); // other group
        results.unreachable(C, B, 1_000, 10, true, "timeout");
        PingmeshResults.Aggregates aggregates = results.aggregates(1_000);
        assertEquals(new PingmeshResults.Summary(10, 0, 5e-6, 10e-6),
                aggregates.ports().get(new PingmeshResults.PortScope(B.key(), true)));
        assertEquals(10, aggregates.ports().get(new PingmeshResults.PortScope(B.key(), false)).lost());
        assertEquals(20, aggregates.ports().get(new PingmeshResults.PortScope(C.key(), false)).sent());
        assertEquals(0.5, aggregates.ports().get(new PingmeshResults.PortScope(C.key(), false)).lossRatio());
        assertEquals(1.0, aggregates.groups().get(new PingmeshResults.GroupPair("leaf-02", "leaf-01")).lossRatio());
        assertEquals(0.0, aggregates.groups().get(new PingmeshResults.GroupPair("leaf-01", "leaf-02")).lossRatio());
        assertEquals(3, aggregates.groups().size(), "leaf-01→leaf-01, leaf-01→leaf-02, leaf-02→leaf-01");
    }

    @Test
    void portStatesNameTheBadPortNotItsPeers() {
        MeshPort d = new MeshPort(new PortKey("d", "mlx5_0", 1), Fabric.ROCE, "leaf-02");
        MeshPort slow = new MeshPort(new PortKey("s", "mlx5_0", 1), Fabric.ROCE, "leaf-02");
        results.completed(A, B, 1_000, warmedUp(micros(10)));
        results.completed(B, A, 1_000, warmedUp(micros(10)));
        results.completed(A, d, 1_000, warmedUp(micros(10)));
        results.unreachable(A, C, 1_000, 20, true, "timeout"); // C dead: every pair of C lost everything
        results.unreachable(B, C, 1_000, 20, true, "timeout");
        results.completed(d, slow, 1_000, warmedUp(micros(10).stream().map(n -> n * 10).toList()));
        results.completed(slow, B, 1_000, warmedUp(micros(10).stream().map(n -> n * 10).toList()));
        Map<PortKey, PortState> states = PortState.of(results.pairStats(1_000));
        assertEquals(PortState.UNREACHABLE, states.get(C.key()));
        assertEquals(PortState.OK, states.get(A.key()), "A lost towards C only: 1 of its 4 pairs");
        assertEquals(PortState.SLOW, states.get(slow.key()));
        assertEquals(PortState.OK, states.get(B.key()));
    }
}
