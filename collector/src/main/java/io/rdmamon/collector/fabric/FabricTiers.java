package io.rdmamon.collector.fabric;

import io.rdmamon.protocol.fabric.FabricNode;
import io.rdmamon.protocol.fabric.FabricSweep;
import io.rdmamon.protocol.fabric.NodeType;

import java.util.HashMap;
import java.util.Map;

/**
 * The level of each node of a fabric, as a fat tree has them: HCAs and routers 0, a switch with an HCA cabled to it 1
 * (a leaf), any other switch 2 (a spine, or a core of a bigger tree, drawn and compared with its like). Used by
 * {@code fabric_link_degraded} (links between the same two levels are peers) and the Fabric view.
 */
public final class FabricTiers {
    public static final int HOST = 0;
    public static final int LEAF = 1;
    public static final int SPINE = 2;

    private FabricTiers() {
    }

    /** Every node's level, by GUID. */
    public static Map<String, Integer> of(FabricSweep sweep) {
        Map<String, NodeType> types = new HashMap<>();
        sweep.nodes().forEach(n -> types.put(n.guid(), n.type()));
        Map<String, Integer> tier = new HashMap<>();
        for (FabricNode node : sweep.nodes()) {
            if (node.type() != NodeType.SWITCH) {
                tier.put(node.guid(), HOST);
                continue;
            }
            boolean leaf = node.ports().stream().anyMatch(p -> p.linked() && types.get(p.remoteGuid()) == NodeType.CA);
            tier.put(node.guid(), leaf ? LEAF : SPINE);
        }
        return tier;
    }
}
