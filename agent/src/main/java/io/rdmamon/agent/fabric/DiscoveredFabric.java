package io.rdmamon.agent.fabric;

import io.rdmamon.protocol.fabric.LinkSpeed;
import io.rdmamon.protocol.fabric.NodeType;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The topology {@code ibnetdiscover} printed: every node with its linked ports. Ports with nothing linked are not
 * listed by ibnetdiscover; iblinkinfo's lines add them ({@link FabricAssembler}). Immutable.
 */
final class DiscoveredFabric {
    private final String fromGuid;
    private final List<Node> nodes;
    private final Map<String, Node> byGuid = new HashMap<>();
    private final Map<String, PortKey> byPortGuid = new HashMap<>();

    /**
     * @param fromGuid the node GUID the discovery started from (the sweeping HCA); null when not printed
     * @param nodes    every node, in ibnetdiscover's order
     */
    DiscoveredFabric(String fromGuid, List<Node> nodes) {
        this.fromGuid = fromGuid;
        this.nodes = List.copyOf(nodes);
        for (Node n : this.nodes) {
            byGuid.put(n.guid(), n);
            for (Port p : n.ports()) {
                if (p.portGuid() != null) {
                    byPortGuid.put(p.portGuid(), new PortKey(n.guid(), p.number()));
                }
            }
        }
    }

    String fromGuid() {
        return fromGuid;
    }

    List<Node> nodes() {
        return nodes;
    }

    Node node(String guid) {
        return byGuid.get(guid);
    }

    /** @param lid a switch's base LID (its port 0's); null for a CA, whose LIDs are its ports' */
    record Node(String guid, NodeType type, int portCount, String description, Integer lid, List<Port> ports) {
        Node {
            ports = List.copyOf(ports);
        }
    }

    /**
     * One linked port.
     *
     * @param portGuid an HCA port's own GUID; null for a switch port (they share the node's)
     * @param lid      an HCA port's LID; null for a switch port
     * @param width    active lanes ibnetdiscover printed ({@code 4xSDR}); null when it printed none
     * @param speed    active speed; null when it printed none or one this build does not know
     */
    record Port(int number, String portGuid, Integer lid, String remoteGuid, int remotePort, Integer width,
                LinkSpeed speed) {
    }

    /**
     * The node GUID and port a tool's {@code guid}/{@code port} pair names: a node GUID as it is, or an HCA's port
     * GUID mapped to its node (port numbers are the tool's); null when neither is known.
     */
    PortKey resolve(PortKey key) {
        if (byGuid.containsKey(key.guid())) {
            return key;
        }
        PortKey owner = byPortGuid.get(key.guid());
        return owner == null ? null : new PortKey(owner.guid(), key.port());
    }
}
