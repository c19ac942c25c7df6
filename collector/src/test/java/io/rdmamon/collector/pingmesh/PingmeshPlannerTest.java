package io.rdmamon.collector.pingmesh;

import io.rdmamon.collector.model.PortKey;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PingmeshPlannerTest {
    /**
     * A fleet: {@code groups} groups of {@code nodesPerGroup} nodes with {@code portsPerNode} ports each (a
     * multi-rail host's ports all in its node's group), on {@code fabric}.
     */
    record Fleet(String name, int groups, int nodesPerGroup, int portsPerNode, PingmeshPlanner.Budget budget) {
        List<MeshPort> ports(Fabric fabric, String prefix) {
            List<MeshPort> ports = new ArrayList<>();
            for (int g = 0; g < groups; g++) {
                for (int n = 0; n < nodesPerGroup; n++) {
                    String node = prefix + "g" + g + "n" + n;
                    for (int p = 0; p < portsPerNode; p++) {
                        ports.add(new MeshPort(new PortKey(node, "mlx5_" + p, 1), fabric, prefix + "group-" + g));
                    }
                }
            }
            return ports;
        }

        List<MeshPort> ports() {
            return ports(Fabric.ROCE, "");
        }

        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Fleet> fleets() {
        return Stream.of(
                new Fleet("one pair", 1, 2, 1, new PingmeshPlanner.Budget(3, 1, 3)),
                new Fleet("one group of 10", 1, 10, 1, new PingmeshPlanner.Budget(3, 1, 3)),
                new Fleet("one group, one peer a round", 1, 7, 1, new PingmeshPlanner.Budget(1, 1, 3)),
                new Fleet("4 groups of 4", 4, 4, 1, new PingmeshPlanner.Budget(3, 1, 3)),
                new Fleet("multi-rail: 3 groups of 3 nodes x 4 ports", 3, 3, 4, new PingmeshPlanner.Budget(3, 2, 2)),
                new Fleet("uneven capacity: 6 groups of 5, 1 server", 6, 5, 1, new PingmeshPlanner.Budget(2, 1, 1)),
                new Fleet("7 groups of 2 nodes x 2 ports", 7, 2, 2, new PingmeshPlanner.Budget(3, 2, 3)));
    }

    /** Every ordered pair of one group, of two nodes, is probed within ceil((n−1)/peersPerRound) rounds. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("fleets")
    void everyPairOfAGroupIsProbedWithinItsRounds(Fleet fleet) {
        List<MeshPort> ports = fleet.ports();
        int n = fleet.nodesPerGroup() * fleet.portsPerNode();
        int rounds = ceilDiv(n - 1, fleet.budget().peersPerRound());
        for (long start : new long[] {0, 17, 1_000_003}) {
            Set<List<PortKey>> probed = new HashSet<>();
            for (long r = start; r < start + rounds; r++) {
                for (PlannedProbe probe : PingmeshPlanner.plan(r, ports, fleet.budget())) {
                    probed.add(List.of(probe.src(), probe.dst()));
                }
            }
            for (MeshPort a : ports) {
                for (MeshPort b : ports) {
                    if (a.group().equals(b.group()) && !a.key().node().equals(b.key().node())) {
                        assertTrue(probed.contains(List.of(a.key(), b.key())), a.key() + " -> " + b.key()
                                + " not probed within " + rounds + " rounds from round " + start);
                    }
                }
            }
        }
    }

    /** Every ordered group pair is probed within ceil((m−1)/otherGroupsPerRound) rounds. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("fleets")
    void everyGroupPairIsProbedWithinItsRounds(Fleet fleet) {
        List<MeshPort> ports = fleet.ports();
        int m = fleet.groups();
        if (m < 2) {
            assertTrue(PingmeshPlanner.plan(0, ports, fleet.budget()).stream().allMatch(PlannedProbe::ownGroup));
            return;
        }
        int rounds = ceilDiv(m - 1, fleet.budget().otherGroupsPerRound());
        Map<PortKey, String> groupOf = groups(ports);
        for (long start : new long[] {0, 5, 999}) {
            Set<List<String>> probed = new HashSet<>();
            for (long r = start; r < start + rounds; r++) {
                for (PlannedProbe probe : PingmeshPlanner.plan(r, ports, fleet.budget())) {
                    probed.add(List.of(groupOf.get(probe.src()), groupOf.get(probe.dst())));
                }
            }
            for (int a = 0; a < m; a++) {
                for (int b = 0; b < m; b++) {
                    if (a != b) {
                        assertTrue(probed.contains(List.of("group-" + a, "group-" + b)),
                                "group-" + a + " -> group-" + b + " not probed within " + rounds + " rounds");
                    }
                }
            }
        }
    }

    /**
     * The budget: in each slot a port is the client of at most one probe and the server of at most maxServerPerPort;
     * per round a port runs at most peersPerRound + otherGroupsPerRound clients, of which at most peersPerRound in its
     * own group; never two ports of one node, never a port with itself; ownGroup says the truth.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("fleets")
    void aRoundKeepsTheBudget(Fleet fleet) {
        List<MeshPort> ports = fleet.ports();
        Map<PortKey, String> groupOf = groups(ports);
        PingmeshPlanner.Budget budget = fleet.budget();
        for (long r = 0; r < 40; r++) {
            List<PlannedProbe> plan = PingmeshPlanner.plan(r, ports, budget);
            Map<String, Integer> clients = new HashMap<>();
            Map<String, Integer> servers = new HashMap<>();
            Map<PortKey, Integer> ownPerRound = new HashMap<>();
            Map<PortKey, Integer> perRound = new HashMap<>();
            for (PlannedProbe p : plan) {
                assertFalse(p.src().node().equals(p.dst().node()), "same node: " + p);
                assertTrue(p.slot() >= 0 && p.slot() < budget.slots(), "slot out of range: " + p);
                assertEquals(groupOf.get(p.src()).equals(groupOf.get(p.dst())), p.ownGroup(), p.toString());
                assertEquals(p.ownGroup(), p.slot() < budget.peersPerRound(), "own-group probes take the first slots: " + p);
                clients.merge(p.slot() + " " + p.src(), 1, Integer::sum);
                servers.merge(p.slot() + " " + p.dst(), 1, Integer::sum);
                perRound.merge(p.src(), 1, Integer::sum);
                if (p.ownGroup()) {
                    ownPerRound.merge(p.src(), 1, Integer::sum);
                }
            }
            clients.forEach((slotPort, count) -> assertEquals(1, count, "client twice in a slot: " + slotPort));
            servers.forEach((slotPort, count) -> assertTrue(count <= budget.maxServerPerPort(),
                    "server of " + count + " in a slot: " + slotPort));
            perRound.forEach((port, count) -> assertTrue(count <= budget.slots(), port + " client " + count + " times"));
            ownPerRound.forEach((port, count) -> assertTrue(count <= budget.peersPerRound(), port + " " + count));
            assertTrue(plan.size() <= (long) ports.size() * budget.slots());
        }
    }

    /**
     * The lab's three VMs, two peers a round: when only the first slot's probes ever run (the host is too slow for the
     * second to find its ports free), every ordered pair is still probed within two rounds, not half of them never.
     */
    @Test
    void theFirstSlotRunsADifferentPeerEachRoundSoASlotAlwaysSkippedStarvesNoPair() {
        List<MeshPort> ports = new Fleet("three VMs", 1, 3, 1, null).ports();
        PingmeshPlanner.Budget budget = new PingmeshPlanner.Budget(2, 1, 3);
        Set<String> firstSlot = new HashSet<>();
        for (long r = 0; r < 2; r++) {
            PingmeshPlanner.plan(r, ports, budget).stream().filter(p -> p.slot() == 0)
                    .forEach(p -> firstSlot.add(p.src().node() + ">" + p.dst().node()));
        }
        assertEquals(6, firstSlot.size(), firstSlot.toString());
    }

    @Test
    void aGroupLargerThanItsTargetsCapacityTakesTurns() {
        // 6 clients of group a towards 2 servers of group b, 1 client per server: 2 probe a round, each of a's ports
        // gets its turn within 3 rounds
        List<MeshPort> ports = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            ports.add(new MeshPort(new PortKey("a" + i, "mlx5_0", 1), Fabric.ROCE, "a"));
        }
        for (int i = 0; i < 2; i++) {
            ports.add(new MeshPort(new PortKey("b" + i, "mlx5_0", 1), Fabric.ROCE, "b"));
        }
        PingmeshPlanner.Budget budget = new PingmeshPlanner.Budget(0, 1, 1);
        Set<String> turns = new HashSet<>();
        for (long r = 0; r < 3; r++) {
            List<PlannedProbe> fromA = PingmeshPlanner.plan(r, ports, budget).stream()
                    .filter(p -> p.src().node().startsWith("a")).toList();
            assertEquals(2, fromA.size(), fromA.toString());
            fromA.forEach(p -> turns.add(p.src().node()));
        }
        assertEquals(Set.of("a0", "a1", "a2", "a3", "a4", "a5"), turns);
    }

    @Test
    void fabricsAreNeverMixed() {
        List<MeshPort> ports = new ArrayList<>(new Fleet("roce", 2, 3, 1, null).ports(Fabric.ROCE, "r"));
        ports.addAll(new Fleet("ib", 2, 3, 1, null).ports(Fabric.INFINIBAND, "i"));
        ports.addAll(new Fleet("erdma", 1, 3, 1, null).ports(Fabric.ERDMA, "e"));
        Map<PortKey, Fabric> fabricOf = new HashMap<>();
        ports.forEach(p -> fabricOf.put(p.key(), p.fabric()));
        Set<Fabric> probing = new HashSet<>();
        for (long r = 0; r < 10; r++) {
            for (PlannedProbe p : PingmeshPlanner.plan(r, ports, new PingmeshPlanner.Budget(3, 1, 3))) {
                assertEquals(fabricOf.get(p.src()), fabricOf.get(p.dst()), p.toString());
                probing.add(fabricOf.get(p.src()));
            }
        }
        assertEquals(Set.of(Fabric.ROCE, Fabric.INFINIBAND, Fabric.ERDMA), probing);
    }

    @Test
    void aNodeAloneOrPortsOfOneNodeAreNotProbed() {
        List<MeshPort> oneNode = List.of(new MeshPort(new PortKey("n1", "mlx5_0", 1), Fabric.ROCE, "g"),
                new MeshPort(new PortKey("n1", "mlx5_1", 1), Fabric.ROCE, "g"),
                new MeshPort(new PortKey("n1", "mlx5_2", 1), Fabric.ROCE, "h"));
        for (long r = 0; r < 5; r++) {
            assertEquals(List.of(), PingmeshPlanner.plan(r, oneNode, new PingmeshPlanner.Budget(3, 1, 3)));
        }
        assertEquals(List.of(), PingmeshPlanner.plan(0, List.of(), new PingmeshPlanner.Budget(3, 1, 3)));
    }

    @Test
    void thePlanIsAFunctionOfTheRoundAndThePortsNotOfTheirOrder() {
        List<MeshPort> ports = new Fleet("f", 3, 4, 2, null).ports();
        PingmeshPlanner.Budget budget = new PingmeshPlanner.Budget(3, 1, 3);
        List<MeshPort> shuffled = new ArrayList<>(ports);
        Collections.shuffle(shuffled, new Random(7));
        for (long r = 0; r < 8; r++) {
            assertEquals(PingmeshPlanner.plan(r, ports, budget), PingmeshPlanner.plan(r, shuffled, budget));
        }
        assertFalse(PingmeshPlanner.plan(0, ports, budget).equals(PingmeshPlanner.plan(1, ports, budget)),
                "consecutive rounds rotate");
    }

    @Test
    void aBudgetWithoutServersIsRefused() {
        try {
            new PingmeshPlanner.Budget(3, 1, 0);
        } catch (IllegalArgumentException e) {
            assertTrue(e.getMessage().contains("servers per port"), e.getMessage());
            return;
        }
        throw new AssertionError("accepted");
    }

    private static Map<PortKey, String> groups(List<MeshPort> ports) {
        Map<PortKey, String> groupOf = new HashMap<>();
        ports.forEach(p -> groupOf.put(p.key(), p.group()));
        return groupOf;
    }

    private static int ceilDiv(int a, int b) {
        return (a + b - 1) / b;
    }
}
