package io.rdmamon.agent.sim;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * Which nodes a fleet has and which fault each one shows. Pure: the same spec gives the same plan.
 *
 * <p>Mix: mostly RoCE; from 3 nodes on at least one InfiniBand and one eRDMA node (a tenth of the
 * fleet each), from 2 nodes on one eRDMA node. RoCE nodes come first, then IB, then eRDMA.
 *
 * <p>Faults: configuration faults that are fleet-wide in practice (wrong-priority, ecn-off,
 * erdma-ratelimit) hit every node they can; local faults (pfc-storm, link-degraded, gid-missing)
 * hit the first node they can, so the healthy peers show the contrast. {@code mixed} gives about a
 * quarter of the nodes one fault each, kinds and nodes drawn from the seed. tor-uplink-loss is leaf-01's: its
 * nodes (RoCE, since it needs three leaves of them) carry it.
 */
final class FleetPlan {
    /** One planned node; {@code index} is 1-based and appears in the name. */
    record NodePlan(int index, String name, NodeKind kind, Scenario fault) {
    }

    private static final Set<Scenario> FLEET_WIDE = EnumSet.of(Scenario.WRONG_PRIORITY, Scenario.ECN_OFF,
            Scenario.ERDMA_RATELIMIT);
    private static final List<Scenario> NODE_FAULTS = List.of(Scenario.WRONG_PRIORITY, Scenario.PFC_STORM,
            Scenario.ECN_OFF, Scenario.LINK_DEGRADED, Scenario.GID_MISSING, Scenario.ERDMA_RATELIMIT,
            Scenario.PFC_LOST, Scenario.TRUST_PCP, Scenario.DSCP_MAP_WRONG);
    /** Leaves of RoCE nodes {@link Scenario#TOR_UPLINK_LOSS} needs: the faulty one and two that see each other. */
    static final int MIN_ROCE_LEAVES = 3;
    /** Keeps the mixed-fault draw independent of the traffic streams drawn from the same seed. */
    private static final long MIXED_STREAM = 0x6d69786564L;

    private FleetPlan() {
    }

    static String nodeName(int index) {
        return String.format("gpu-node-%03d", index);
    }

    /** Whether a node of {@code kind} can show {@code fault}. */
    static boolean canShow(NodeKind kind, Scenario fault) {
        return switch (fault) {
            case HEALTHY -> true;
            case WRONG_PRIORITY, PFC_STORM, ECN_OFF, GID_MISSING, DIRTY_OPTIC, PFC_LOST, TRUST_PCP, DSCP_MAP_WRONG,
                 GPU_FAR_NIC, ACS_REDIRECT, NO_PEERMEM, MODULE_SWAP, REBOOT_QOS, FIRMWARE_FATAL -> kind == NodeKind.ROCE_MLX5;
            case LINK_DEGRADED, PCIE_X8 -> kind != NodeKind.ERDMA;
            case ERDMA_RATELIMIT -> kind == NodeKind.ERDMA;
            case TOR_UPLINK_LOSS -> kind == NodeKind.ROCE_MLX5;
            case MIXED -> false;
        };
    }

    /**
     * @throws IllegalArgumentException when the scenario needs a kind of node the fleet does not have
     */
    static List<NodePlan> plan(SimulationSpec spec) {
        List<NodeKind> kinds = kinds(spec.nodeCount());
        Scenario[] faults = new Scenario[kinds.size()];
        Arrays.fill(faults, Scenario.HEALTHY);
        Scenario scenario = spec.scenario();
        if (scenario == Scenario.MIXED) {
            assignMixed(kinds, faults, new SplittableRandom(spec.seed() ^ MIXED_STREAM));
        } else if (scenario == Scenario.TOR_UPLINK_LOSS) {
            requireRoceLeaves(kinds, scenario);
            for (int i = 0; i < kinds.size(); i++) {
                if (SimulatedRacks.leafOf(i + 1).equals(SimulatedRacks.leafOf(1))) {
                    faults[i] = scenario;
                }
            }
        } else if (scenario != Scenario.HEALTHY) {
            assignSingle(kinds, faults, scenario, spec.nodeCount());
        }
        List<NodePlan> plan = new ArrayList<>(kinds.size());
        for (int i = 0; i < kinds.size(); i++) {
            plan.add(new NodePlan(i + 1, nodeName(i + 1), kinds.get(i), faults[i]));
        }
        return List.copyOf(plan);
    }

    private static List<NodeKind> kinds(int nodeCount) {
        int infiniband = nodeCount >= 3 ? Math.max(1, nodeCount / 10) : 0;
        int erdma = nodeCount >= 2 ? Math.max(1, nodeCount / 10) : 0;
        List<NodeKind> kinds = new ArrayList<>(nodeCount);
        for (int i = 0; i < nodeCount - infiniband - erdma; i++) {
            kinds.add(NodeKind.ROCE_MLX5);
        }
        for (int i = 0; i < infiniband; i++) {
            kinds.add(NodeKind.INFINIBAND_MLX5);
        }
        for (int i = 0; i < erdma; i++) {
            kinds.add(NodeKind.ERDMA);
        }
        return kinds;
    }

    private static void assignSingle(List<NodeKind> kinds, Scenario[] faults, Scenario scenario, int nodeCount) {
        boolean assigned = false;
        for (int i = 0; i < kinds.size(); i++) {
            if (canShow(kinds.get(i), scenario)) {
                faults[i] = scenario;
                assigned = true;
                if (!FLEET_WIDE.contains(scenario)) {
                    return;
                }
            }
        }
        if (!assigned) {
            throw new IllegalArgumentException("scenario '" + scenario.cliName() + "' needs a node that can show it, but a fleet of "
                    + nodeCount + " node(s) has none (eRDMA nodes appear from 2 nodes, InfiniBand from 3)");
        }
    }

    /**
     * A switch's fault (its nodes carry it in their counters) is seen from pairs across leaves: the faulty leaf and two more that see each other clean (so
     * that the verdict can tell the leaf from the spine), all RoCE, so that one kind of port shows it.
     */
    private static void requireRoceLeaves(List<NodeKind> kinds, Scenario scenario) {
        long roce = kinds.stream().filter(kind -> kind == NodeKind.ROCE_MLX5).count();
        if (roce < MIN_ROCE_LEAVES * SimulatedRacks.NODES_PER_LEAF) {
            throw new IllegalArgumentException("scenario '" + scenario.cliName() + "' needs at least "
                    + MIN_ROCE_LEAVES * SimulatedRacks.NODES_PER_LEAF + " RoCE nodes (" + MIN_ROCE_LEAVES + " leaves of "
                    + SimulatedRacks.NODES_PER_LEAF + "), but a fleet of " + kinds.size() + " node(s) has " + roce
                    + " (a tenth each are InfiniBand and eRDMA): use 8 nodes or more");
        }
    }

    private static void assignMixed(List<NodeKind> kinds, Scenario[] faults, SplittableRandom random) {
        int wanted = Math.max(1, kinds.size() / 4);
        List<Scenario> order = new ArrayList<>(NODE_FAULTS);
        for (int i = order.size() - 1; i > 0; i--) {
            Collections.swap(order, i, random.nextInt(i + 1));
        }
        int assigned = 0;
        boolean progress = true;
        while (assigned < wanted && progress) {
            progress = false;
            for (Scenario fault : order) {
                if (assigned == wanted) {
                    break;
                }
                List<Integer> candidates = new ArrayList<>();
                for (int i = 0; i < kinds.size(); i++) {
                    if (faults[i] == Scenario.HEALTHY && canShow(kinds.get(i), fault)) {
                        candidates.add(i);
                    }
                }
                if (!candidates.isEmpty()) {
                    faults[candidates.get(random.nextInt(candidates.size()))] = fault;
                    assigned++;
                    progress = true;
                }
            }
        }
    }
}
