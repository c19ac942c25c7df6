package io.rdmamon.agent.sim;

import java.util.Objects;

/**
 * What to simulate.
 *
 * @param nodeCount         number of nodes, 1..{@value #MAX_NODES}
 * @param scenario          what goes wrong
 * @param seed              seeds every random choice: equal specs and equal {@code advance} calls give equal trees
 * @param losslessPriority  the 802.1p priority with PFC enabled on RoCE ports, 0..7
 */
public record SimulationSpec(int nodeCount, Scenario scenario, long seed, int losslessPriority) {
    public static final int MAX_NODES = 1000;
    public static final int DEFAULT_LOSSLESS_PRIORITY = 3;
    public static final long DEFAULT_SEED = 1L;
    static final int ROCE_DSCP = 26;

    public SimulationSpec {
        Objects.requireNonNull(scenario, "scenario");
        if (nodeCount < 1 || nodeCount > MAX_NODES) {
            throw new IllegalArgumentException("node count must be 1.." + MAX_NODES + ", got " + nodeCount);
        }
        if (losslessPriority < 0 || losslessPriority > 7) {
            throw new IllegalArgumentException("lossless priority must be 0..7, got " + losslessPriority);
        }
    }

    /** {@code nodeCount} nodes in {@code scenario} with the default seed and lossless priority 3. */
    public static SimulationSpec of(int nodeCount, Scenario scenario) {
        return new SimulationSpec(nodeCount, scenario, DEFAULT_SEED, DEFAULT_LOSSLESS_PRIORITY);
    }

    /**
     * The DSCP the fleet's RoCE traffic is marked with ({@code NCCL_IB_TC} = 4 × it): 26 (AF31), what NVIDIA's tooling
     * and most switch profiles use (docs/reference/qos-dcb.md §6.1). The nodes' DSCP map sends it to {@link
     * #losslessPriority}
     * whatever that is, so only with priority 3 does it agree with the default map {@code d >> 3}.
     */
    public int roceDscp() {
        return ROCE_DSCP;
    }

    /** The priority RDMA lands on in {@link Scenario#WRONG_PRIORITY}: 0 (the default, lossy one), or 1 when 0 is
     * lossless. */
    public int wrongPriority() {
        return losslessPriority == 0 ? 1 : 0;
    }
}
