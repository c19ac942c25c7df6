package io.rdmamon.agent.sim;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class FleetPlanTest {

    private static Map<NodeKind, Long> kinds(int nodes) {
        return FleetPlan.plan(SimulationSpec.of(nodes, Scenario.HEALTHY)).stream()
                .collect(Collectors.groupingBy(FleetPlan.NodePlan::kind, Collectors.counting()));
    }

    @Test
    void fleetIsMostlyRoceWithInfinibandAndErdmaFromThreeNodes() {
        assertEquals(Map.of(NodeKind.ROCE_MLX5, 1L), kinds(1));
        assertEquals(Map.of(NodeKind.ROCE_MLX5, 1L, NodeKind.ERDMA, 1L), kinds(2));
        assertEquals(Map.of(NodeKind.ROCE_MLX5, 1L, NodeKind.INFINIBAND_MLX5, 1L, NodeKind.ERDMA, 1L), kinds(3));
        assertEquals(Map.of(NodeKind.ROCE_MLX5, 16L, NodeKind.INFINIBAND_MLX5, 2L, NodeKind.ERDMA, 2L), kinds(20));
    }

    @Test
    void nodesAreNamedInOrder() {
        List<String> names = FleetPlan.plan(SimulationSpec.of(3, Scenario.HEALTHY)).stream()
                .map(FleetPlan.NodePlan::name).toList();
        assertEquals(List.of("gpu-node-001", "gpu-node-002", "gpu-node-003"), names);
    }

    @Test
    void fleetWideFaultsHitEveryEligibleNodeAndLocalFaultsOnlyTheFirst() {
        List<FleetPlan.NodePlan> ecnOff = FleetPlan.plan(SimulationSpec.of(10, Scenario.ECN_OFF));
        for (FleetPlan.NodePlan node : ecnOff) {
            assertEquals(node.kind() == NodeKind.ROCE_MLX5 ? Scenario.ECN_OFF : Scenario.HEALTHY, node.fault(), node.name());
        }
        List<FleetPlan.NodePlan> storm = FleetPlan.plan(SimulationSpec.of(10, Scenario.PFC_STORM));
        assertEquals(List.of("gpu-node-001"), storm.stream()
                .filter(node -> node.fault() == Scenario.PFC_STORM).map(FleetPlan.NodePlan::name).toList());
    }

    @Test
    void scenarioWithoutAnEligibleNodeIsRejectedWithTheReason() {
        IllegalArgumentException error = assertThrows(IllegalArgumentException.class,
                () -> FleetPlan.plan(SimulationSpec.of(1, Scenario.ERDMA_RATELIMIT)));
        assertTrue(error.getMessage().startsWith("scenario 'erdma-ratelimit' needs a node that can show it"),
                error.getMessage());
    }

    @Test
    void torUplinkLossNeedsThreeLeavesOfRoceNodesAndMarksLeafOnesNodes() {
        // 7 nodes: 5 RoCE, one InfiniBand, one eRDMA; the third RoCE leaf would be half empty
        IllegalArgumentException error = assertThrows(IllegalArgumentException.class,
                () -> FleetPlan.plan(SimulationSpec.of(7, Scenario.TOR_UPLINK_LOSS)));
        assertEquals("scenario 'tor-uplink-loss' needs at least 6 RoCE nodes (3 leaves of 2), but a fleet of 7 node(s)"
                + " has 5 (a tenth each are InfiniBand and eRDMA): use 8 nodes or more", error.getMessage());
        List<FleetPlan.NodePlan> fleet = FleetPlan.plan(SimulationSpec.of(8, Scenario.TOR_UPLINK_LOSS));
        assertEquals(6, fleet.stream().filter(node -> node.kind() == NodeKind.ROCE_MLX5).count());
        assertEquals(List.of("gpu-node-001", "gpu-node-002"), fleet.stream()
                .filter(node -> node.fault() == Scenario.TOR_UPLINK_LOSS).map(FleetPlan.NodePlan::name).toList(),
                "the nodes under leaf-01 carry it (their counters)");
    }

    @Test
    void mixedGivesAboutAQuarterOfTheNodesAFaultTheyCanShowDrawnFromTheSeed() {
        Function<Long, List<FleetPlan.NodePlan>> plan =
                seed -> FleetPlan.plan(new SimulationSpec(20, Scenario.MIXED, seed, 3));
        List<FleetPlan.NodePlan> fleet = plan.apply(7L);
        List<FleetPlan.NodePlan> faulty = fleet.stream().filter(node -> node.fault() != Scenario.HEALTHY).toList();
        assertEquals(5, faulty.size());
        assertEquals(5, faulty.stream().map(FleetPlan.NodePlan::fault).distinct().count(), "different faults");
        faulty.forEach(node -> assertTrue(FleetPlan.canShow(node.kind(), node.fault()), node.toString()));
        assertEquals(fleet, plan.apply(7L));
        assertNotEquals(fleet, plan.apply(8L));
    }
}
