package io.rdmamon.protocol.fabric;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One cable, named by both its ends ("each metric represents a cable"). End {@code a} is the end whose node GUID and
 * port sort first, so that a link has one name whichever end a sweep met first.
 */
public record FabricLink(End a, End b) {
    public FabricLink {
        Objects.requireNonNull(a, "a");
        Objects.requireNonNull(b, "b");
    }

    /** One end: its node and port. */
    public record End(FabricNode node, FabricPort port) {
        public End {
            Objects.requireNonNull(node, "node");
            Objects.requireNonNull(port, "port");
        }

        String key() {
            return node.guid() + "/" + String.format("%03d", port.number());
        }
    }

    /**
     * Every link of {@code sweep} once. A port whose remote end is not among the sweep's nodes (the node did not
     * answer) makes no link: both ends are needed to name it.
     */
    public static List<FabricLink> of(FabricSweep sweep) {
        Map<String, FabricNode> byGuid = new HashMap<>();
        sweep.nodes().forEach(n -> byGuid.put(n.guid(), n));
        List<FabricLink> links = new ArrayList<>();
        for (FabricNode node : sweep.nodes()) {
            for (FabricPort port : node.ports()) {
                FabricNode remote = port.linked() ? byGuid.get(port.remoteGuid()) : null;
                FabricPort remotePort = remote == null ? null : remote.port(port.remotePort()).orElse(null);
                if (remotePort == null) {
                    continue;
                }
                End here = new End(node, port);
                End there = new End(remote, remotePort);
                if (here.key().compareTo(there.key()) < 0) {
                    links.add(new FabricLink(here, there));
                }
            }
        }
        return links;
    }
}
