package io.rdmamon.agent.sim.perftest;

import io.rdmamon.agent.sim.FabricSimulator;
import io.rdmamon.agent.sim.Scenario;
import io.rdmamon.agent.sim.SimulatedRacks;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SplittableRandom;

/**
 * The round trips of the simulated fabric's paths, as a latency probe between two simulated ports measures them.
 * Pure: equal inputs give equal round trips.
 *
 * <p>One way takes about {@link #SAME_LEAF_ONE_WAY_MICROS} under one leaf (NIC, one switch, NIC) and
 * {@link #CROSS_LEAF_ONE_WAY_MICROS} across leaves (leaf, spine, leaf), the figures of a RoCE or InfiniBand fabric
 * of one cut-through switch tier and two, with a few per cent of jitter. In {@link Scenario#TOR_UPLINK_LOSS} the
 * uplink of {@link #LOSSY_LEAF} drops {@link #UPLINK_LOSS} of packets: an exchange between a node under it and a node
 * elsewhere (exactly one end under it) loses a packet that often, and RC waits out the QP's local ACK timeout
 * (4.096 µs × 2^{@code -u}) before it retransmits, so that exchange's round trip grows by the timeout.
 */
final class SimulatedPathLatency {
    static final double SAME_LEAF_ONE_WAY_MICROS = 2.5;
    static final double CROSS_LEAF_ONE_WAY_MICROS = 4.0;
    /** Uniform jitter of a one-way time, ± this share. */
    static final double JITTER = 0.04;
    static final String LOSSY_LEAF = SimulatedRacks.leafOf(1);
    /**
     * 10 %: at 3 % a pair's 36 round trips of a window lose two (the pingmesh's least to call it lossy) in under a
     * third of the pairs, too few for the pattern to name the switch rather than many paths.
     */
    static final double UPLINK_LOSS = 0.10;
    /** The unit of the IB local ACK timeout: 4.096 µs × 2^timeout (IBTA, perftest's {@code -u}). */
    static final double ACK_TIMEOUT_UNIT_MICROS = 4.096;

    /** Host root to leaf; roots not in it (tests' fixtures) count as one more leaf, shared by all of them. */
    private final Map<Path, String> leaves;
    private final String lossyLeaf;
    private final long seed;

    SimulatedPathLatency(Map<Path, String> leaves, String lossyLeaf, long seed) {
        this.leaves = Map.copyOf(leaves);
        this.lossyLeaf = lossyLeaf;
        this.seed = seed;
    }

    /** Every root under one leaf, no loss. */
    static SimulatedPathLatency clean() {
        return new SimulatedPathLatency(Map.of(), null, 1);
    }

    /** The simulator's nodes under their leaves ({@link SimulatedRacks#leafOf}, nodes numbered from 1 in order). */
    static SimulatedPathLatency of(FabricSimulator simulator) {
        Map<Path, String> leaves = new HashMap<>();
        for (int i = 0; i < simulator.nodes().size(); i++) {
            leaves.put(simulator.nodes().get(i).hostRoot(), SimulatedRacks.leafOf(i + 1));
        }
        boolean lossy = simulator.spec().scenario() == Scenario.TOR_UPLINK_LOSS;
        return new SimulatedPathLatency(leaves, lossy ? LOSSY_LEAF : null, simulator.spec().seed());
    }

    /** Whether the path between the two roots crosses the lossy uplink. */
    boolean lossy(Path a, Path b) {
        return lossyLeaf != null && lossyLeaf.equals(leaves.get(a)) != lossyLeaf.equals(leaves.get(b));
    }

    /**
     * The round trips, microseconds, of the {@code exchanges} a probe between the two roots measures.
     *
     * @param qpTimeout the QP's local ACK timeout exponent ({@code -u})
     * @param run       tells runs apart (the server's TCP port): each draws its own jitter and losses
     */
    List<Double> roundTripsMicros(Path client, Path server, int exchanges, int qpTimeout, long run) {
        boolean sameLeaf = Objects.equals(leaves.get(client), leaves.get(server));
        double oneWay = sameLeaf ? SAME_LEAF_ONE_WAY_MICROS : CROSS_LEAF_ONE_WAY_MICROS;
        double loss = lossy(client, server) ? UPLINK_LOSS : 0;
        double retransmission = ACK_TIMEOUT_UNIT_MICROS * Math.pow(2, qpTimeout);
        SplittableRandom random = new SplittableRandom(seed ^ run * 0x9E3779B97F4A7C15L);
        List<Double> roundTrips = new ArrayList<>(exchanges);
        for (int i = 0; i < exchanges; i++) {
            double there = oneWay * (1 + JITTER * (2 * random.nextDouble() - 1));
            double back = oneWay * (1 + JITTER * (2 * random.nextDouble() - 1));
            roundTrips.add(there + back + (random.nextDouble() < loss ? retransmission : 0));
        }
        return roundTrips;
    }
}
