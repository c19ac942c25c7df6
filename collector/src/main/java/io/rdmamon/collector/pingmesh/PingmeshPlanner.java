package io.rdmamon.collector.pingmesh;

import io.rdmamon.collector.model.PortKey;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Which ports probe which in one round: a pure function of the round number and the ports (docs/pingmesh.md
 * "Planner"). Deterministic: the same round over the same ports gives the same probes, whatever the input order.
 *
 * <p>A round has {@code peersPerRound + otherGroupsPerRound} slots. In slot {@code k < peersPerRound} every port
 * of a group of {@code n} ports (sorted by node, device, port) runs the client towards the port {@code o} places
 * further round the group, {@code o = ((round × peersPerRound + s) mod (n − 1)) + 1} with {@code s = (k + round) mod
 * slots}: the offsets walk through {@code 1 .. n−1}, so every ordered pair of a group is probed within
 * {@code ceil((n−1)/peersPerRound)} rounds, the slot that runs an offset turning with the round (a later slot whose
 * probes are skipped because the earlier ones still run, on a slow host, then skips other pairs each round), and
 * in a slot each port is the client of one probe and the server of one. In slot {@code peersPerRound + j} every
 * group of a fabric's {@code m} groups probes the group {@code d} places further, {@code d = ((round ×
 * otherGroupsPerRound + s) mod (m − 1)) + 1} with {@code s = (j + round) mod slots} likewise, each of its ports towards one port of that group (rotating with the
 * round), no server taking more than {@code maxServerPerPort} clients: every ordered group pair is probed within
 * {@code ceil((m−1)/otherGroupsPerRound)} rounds, and a group larger than its target's capacity takes turns. A port
 * is thus the client of at most one probe per slot and the server of at most {@code maxServerPerPort}. Two ports of one node are never paired (multi-rail hosts would
 * hairpin inside the host: rpingmesh issue #39), nor two ports of different fabrics.
 */
public final class PingmeshPlanner {
    private static final Comparator<PortKey> BY_KEY = Comparator.comparing(PortKey::node)
            .thenComparing(PortKey::device).thenComparingInt(PortKey::port);

    /**
     * How much one round probes.
     *
     * @param peersPerRound       own-group peers each port probes per round (one slot each)
     * @param otherGroupsPerRound other groups each port probes per round (one port of each, one slot each)
     * @param maxServerPerPort    clients one port serves at most in one slot
     */
    public record Budget(int peersPerRound, int otherGroupsPerRound, int maxServerPerPort) {
        public Budget {
            if (peersPerRound < 0 || otherGroupsPerRound < 0 || maxServerPerPort < 1) {
                throw new IllegalArgumentException("budget " + peersPerRound + "/" + otherGroupsPerRound + "/"
                        + maxServerPerPort + ": peers and other groups must be >= 0, servers per port >= 1");
            }
        }

        /** Slots of a round: one per own-group peer, then one per other group. */
        public int slots() {
            return peersPerRound + otherGroupsPerRound;
        }
    }

    private PingmeshPlanner() {
    }

    /** The probes of round {@code round} (any number, e.g. a counter) over {@code ports}, ordered by slot. */
    public static List<PlannedProbe> plan(long round, List<MeshPort> ports, Budget budget) {
        Map<Fabric, TreeMap<String, List<PortKey>>> byFabric = new EnumMap<>(Fabric.class);
        for (MeshPort port : ports) {
            byFabric.computeIfAbsent(port.fabric(), f -> new TreeMap<>())
                    .computeIfAbsent(port.group(), g -> new ArrayList<>()).add(port.key());
        }
        List<PlannedProbe> probes = new ArrayList<>();
        for (TreeMap<String, List<PortKey>> groups : byFabric.values()) {
            List<List<PortKey>> sorted = new ArrayList<>();
            for (List<PortKey> group : groups.values()) {
                List<PortKey> members = new ArrayList<>(group.stream().distinct().toList());
                members.sort(BY_KEY);
                sorted.add(members);
            }
            for (List<PortKey> group : sorted) {
                ownGroup(round, group, budget, probes);
            }
            otherGroups(round, sorted, budget, probes);
        }
        probes.sort(Comparator.comparingInt(PlannedProbe::slot));
        return probes;
    }

    private static void ownGroup(long round, List<PortKey> group, Budget budget, List<PlannedProbe> probes) {
        int n = group.size();
        int slots = Math.min(budget.peersPerRound(), n - 1);
        for (int k = 0; k < slots; k++) {
            // the round's offsets are fixed; which slot runs which turns with the round, so that a later slot whose
            // probes are skipped (the earlier slot's still running on a slow host) is not always the same peers
            int step = (int) Math.floorMod(k + round, (long) slots);
            int offset = (int) Math.floorMod(round * budget.peersPerRound() + step, (long) (n - 1)) + 1;
            for (int i = 0; i < n; i++) {
                PortKey src = group.get(i);
                PortKey dst = group.get((i + offset) % n);
                if (!src.node().equals(dst.node())) {
                    probes.add(new PlannedProbe(src, dst, k, true));
                }
            }
        }
    }

    private static void otherGroups(long round, List<List<PortKey>> groups, Budget budget, List<PlannedProbe> probes) {
        int m = groups.size();
        int slots = Math.min(budget.otherGroupsPerRound(), m - 1);
        for (int j = 0; j < slots; j++) {
            int step = (int) Math.floorMod(j + round, (long) slots);
            int distance = (int) Math.floorMod(round * budget.otherGroupsPerRound() + step, (long) (m - 1)) + 1;
            for (int a = 0; a < m; a++) {
                towards(round, groups.get(a), groups.get((a + distance) % m), budget.peersPerRound() + j,
                        budget.maxServerPerPort(), probes);
            }
        }
    }

    /** Each port of {@code clients} towards one port of {@code servers}, none serving more than {@code maxServer}. */
    private static void towards(long round, List<PortKey> clients, List<PortKey> servers, int slot, int maxServer,
                                List<PlannedProbe> probes) {
        int[] served = new int[servers.size()];
        // who goes first moves on by the target's capacity each round, so that a group larger than that capacity
        // takes turns: each of its ports probes within ceil(clients / (servers × maxServer)) rounds
        long capacity = (long) servers.size() * maxServer;
        int first = (int) Math.floorMod(round * capacity, (long) clients.size());
        for (int c = 0; c < clients.size(); c++) {
            int i = (first + c) % clients.size();
            PortKey src = clients.get(i);
            int start = (int) Math.floorMod(i + round, (long) servers.size());
            for (int tried = 0; tried < servers.size(); tried++) {
                int t = (start + tried) % servers.size();
                PortKey dst = servers.get(t);
                if (served[t] < maxServer && !src.node().equals(dst.node())) {
                    served[t]++;
                    probes.add(new PlannedProbe(src, dst, slot, false));
                    break;
                }
            }
        }
    }
}
