package io.rdmamon.agent.sim;

/**
 * Where simulated nodes sit: every node's ports hang off one leaf (top-of-rack) switch, {@link #NODES_PER_LEAF}
 * nodes to a leaf in node order, and the leaves meet at a spine. The simulated hosts' LLDP neighbours name the leaf,
 * and the simulated fabric's latency and loss follow it (a pair under one leaf crosses one switch, others three).
 * Two nodes to a leaf keeps several leaves in a demo of a few nodes, which the pingmesh's group verdicts need.
 */
public final class SimulatedRacks {
    public static final int NODES_PER_LEAF = 2;

    private SimulatedRacks() {
    }

    /** The leaf of the node with 1-based {@code nodeIndex}: {@code leaf-01} for nodes 1 and 2, and so on. */
    public static String leafOf(int nodeIndex) {
        return String.format("leaf-%02d", leafNumberOf(nodeIndex));
    }

    /** The 1-based number of {@link #leafOf}'s leaf: 1 for nodes 1 and 2, and so on. */
    public static int leafNumberOf(int nodeIndex) {
        if (nodeIndex < 1) {
            throw new IllegalArgumentException("node index " + nodeIndex + " is not 1-based");
        }
        return (nodeIndex - 1) / NODES_PER_LEAF + 1;
    }

    /**
     * The leaf's port that the node's {@code portOrdinal}-th RDMA port (0-based, in device and port order) is cabled
     * to, as a switch names it in LLDP ({@code Ethernet<n>}, four lanes per port as SONiC numbers them).
     */
    public static String leafPortOf(int nodeIndex, int portOrdinal) {
        int slot = (nodeIndex - 1) % NODES_PER_LEAF;
        return "Ethernet" + (slot * 16 + portOrdinal) * 4;
    }
}
