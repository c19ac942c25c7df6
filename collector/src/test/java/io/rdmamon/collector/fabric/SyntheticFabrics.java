package io.rdmamon.collector.fabric;

import io.rdmamon.protocol.fabric.FabricNode;
import io.rdmamon.protocol.fabric.FabricPort;
import io.rdmamon.protocol.fabric.FabricSweep;
import io.rdmamon.protocol.fabric.NodeType;
import io.rdmamon.protocol.testing.FabricSweeps;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * Two-level fat trees for tests: {@code leaves} leaf switches, each with {@code hostsPerLeaf} one-port HCAs on ports
 * 1.. and one uplink to each of {@code spines} spines after them; every link 4X SDR and healthy.
 */
public final class SyntheticFabrics {
    public static final String PREFIX = "0xfe80000000000000";
    public static final String SM = "0x0000000001000000";

    private SyntheticFabrics() {
    }

    public static String host(int leaf, int h) {
        return String.format("0x%016x", 0x1000000L + leaf * 1000L + h);
    }

    public static String leaf(int leaf) {
        return String.format("0x%016x", 0x2000000L + leaf);
    }

    public static String spine(int spine) {
        return String.format("0x%016x", 0x3000000L + spine);
    }

    public static FabricSweep fatTree(int leaves, int spines, int hostsPerLeaf, long timeMillis) {
        List<FabricNode> nodes = new ArrayList<>();
        int lid = 1;
        for (int l = 0; l < leaves; l++) {
            for (int h = 0; h < hostsPerLeaf; h++) {
                nodes.add(new FabricNode(host(l, h), NodeType.CA, "host" + l + "-" + h + " mlx5_0",
                        List.of(FabricSweeps.up(1, lid++, 4, leaf(l), h + 1, FabricSweeps.counters(0, 0)))));
            }
            List<FabricPort> ports = new ArrayList<>();
            for (int h = 0; h < hostsPerLeaf; h++) {
                ports.add(FabricSweeps.up(h + 1, lid, 4, host(l, h), 1, FabricSweeps.counters(0, 0)));
            }
            for (int s = 0; s < spines; s++) {
                ports.add(FabricSweeps.up(hostsPerLeaf + 1 + s, lid, 4, spine(s), l + 1, FabricSweeps.counters(0, 0)));
            }
            lid++;
            nodes.add(new FabricNode(leaf(l), NodeType.SWITCH, "leaf" + l, ports));
        }
        for (int s = 0; s < spines; s++) {
            List<FabricPort> ports = new ArrayList<>();
            for (int l = 0; l < leaves; l++) {
                ports.add(FabricSweeps.up(l + 1, lid, 4, leaf(l), hostsPerLeaf + 1 + s, FabricSweeps.counters(0, 0)));
            }
            lid++;
            nodes.add(new FabricNode(spine(s), NodeType.SWITCH, "spine" + s, ports));
        }
        return new FabricSweep(PREFIX, 1, SM, "sweeper", timeMillis, 250, true, true, List.of(), nodes);
    }

    /** {@code sweep} with {@code guid}'s port {@code port} changed by {@code change}. */
    public static FabricSweep withPort(FabricSweep sweep, String guid, int port, UnaryOperator<FabricPort> change) {
        List<FabricNode> nodes = new ArrayList<>();
        for (FabricNode node : sweep.nodes()) {
            if (!node.guid().equals(guid)) {
                nodes.add(node);
                continue;
            }
            List<FabricPort> ports = new ArrayList<>();
            node.ports().forEach(p -> ports.add(p.number() == port ? change.apply(p) : p));
            nodes.add(new FabricNode(node.guid(), node.type(), node.description(), ports));
        }
        return sweep.withNodes(nodes);
    }

    /** {@code port} with {@code counter} at {@code value}. */
    public static FabricPort counter(FabricPort port, String counter, long value) {
        Map<String, Long> counters = new LinkedHashMap<>(port.counters());
        counters.put(counter, value);
        return port.withCounters(port.counterSets(), counters);
    }

    /** {@code sweep} stamped {@code millis} later, as a topology sweep or a counters-only one. */
    public static FabricSweep later(FabricSweep sweep, long millis, boolean topology) {
        return new FabricSweep(sweep.subnetPrefix(), sweep.smLid(), sweep.smGuid(), sweep.sweeper(),
                sweep.timeMillis() + millis, sweep.durationMillis(), topology, sweep.success(), sweep.problems(),
                sweep.nodes());
    }
}
