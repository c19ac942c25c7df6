package io.rdmamon.agent.fabric;

import io.rdmamon.protocol.fabric.LinkSpeed;
import io.rdmamon.protocol.fabric.NodeType;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parses {@code ibnetdiscover}'s default topology output (infiniband-diags {@code ibnetdiscover.c},
 * {@code out_switch}/{@code out_ca}/{@code out_switch_port}/{@code out_ca_port}): node headers
 * {@code Switch 8 "S-0000000000200001"  # "leaf2" base port 0 lid 3 lmc 0} and {@code Ca 1 "H-..."  # "h4"}, then one
 * line per linked port {@code [1](100007)  "S-0000000000200001"[2]  # lid 8 lmc 0 "leaf2" lid 3 1xSDR}. The
 * {@code vendid=}, {@code devid=}, {@code sysimgguid=} lines are not needed. Pure.
 */
final class IbNetDiscoverText {
    private static final Pattern FROM = Pattern.compile("^# Initiated from node ([0-9a-fA-F]+) port ([0-9a-fA-F]+)");
    private static final Pattern HEADER = Pattern.compile(
            "^(Switch|Ca|Rtr)\\s+(\\d+)\\s+\"[SHR]-([0-9a-fA-F]{1,16})\"\\s*#\\s*\"(.*)\"(.*)$");
    private static final Pattern BASE_LID = Pattern.compile("\\bbase port \\d+ lid (\\d+)");
    private static final Pattern PORT = Pattern.compile(
            "^\\[(\\d+)](?:\\(([0-9a-fA-F]+)\\))?\\s+\"[SHR]-([0-9a-fA-F]{1,16})\"\\[(\\d+)](?:\\(([0-9a-fA-F]+)\\))?\\s*#(.*)$");
    private static final Pattern CA_LID = Pattern.compile("^\\s*lid (\\d+) lmc \\d+");
    private static final Pattern ACTIVE = Pattern.compile("\\b(\\d+)x(\\w+)\\s*$");

    private IbNetDiscoverText() {
    }

    /** The topology in {@code text}, or a {@link FabricTextException} naming the first line it cannot read. */
    static DiscoveredFabric parse(String text) throws FabricTextException {
        String from = null;
        List<DiscoveredFabric.Node> nodes = new ArrayList<>();
        NodeBuilder node = null;
        int lineNumber = 0;
        for (String line : text.split("\n", -1)) {
            lineNumber++;
            Matcher m;
            if ((m = FROM.matcher(line)).find()) {
                from = PortKey.guid(m.group(1));
            } else if ((m = HEADER.matcher(line)).matches()) {
                if (node != null) {
                    nodes.add(node.build());
                }
                node = new NodeBuilder(m, lineNumber);
            } else if (line.startsWith("[")) {
                if (node == null || !(m = PORT.matcher(line)).matches()) {
                    throw new FabricTextException("ibnetdiscover", lineNumber, line, node == null
                            ? "a port line before any node" : "not a port line");
                }
                node.port(m);
            } else if (isNodeHeaderLike(line)) {
                throw new FabricTextException("ibnetdiscover", lineNumber, line, "not a node header");
            }
        }
        if (node != null) {
            nodes.add(node.build());
        }
        if (nodes.isEmpty()) {
            throw new FabricTextException("ibnetdiscover", lineNumber, "", "no node in the output");
        }
        return new DiscoveredFabric(from, nodes);
    }

    private static boolean isNodeHeaderLike(String line) {
        return line.startsWith("Switch") || line.startsWith("Ca\t") || line.startsWith("Ca ") || line.startsWith("Rtr");
    }

    private static final class NodeBuilder {
        private final String guid;
        private final NodeType type;
        private final int portCount;
        private final String description;
        private final Integer lid;
        private final List<DiscoveredFabric.Port> ports = new ArrayList<>();

        NodeBuilder(Matcher header, int lineNumber) throws FabricTextException {
            type = switch (header.group(1)) {
                case "Switch" -> NodeType.SWITCH;
                case "Ca" -> NodeType.CA;
                default -> NodeType.ROUTER;
            };
            portCount = Integer.parseInt(header.group(2));
            guid = PortKey.guid(header.group(3));
            description = header.group(4);
            Matcher base = BASE_LID.matcher(header.group(5));
            lid = base.find() ? Integer.valueOf(base.group(1)) : null;
            if (portCount > 254) {
                throw new FabricTextException("ibnetdiscover", lineNumber, header.group(), portCount + " ports");
            }
        }

        void port(Matcher m) {
            int number = Integer.parseInt(m.group(1));
            String portGuid = m.group(2) == null ? null : PortKey.guid(m.group(2));
            String comment = m.group(6);
            Matcher caLid = CA_LID.matcher(comment);
            Integer lid = type == NodeType.SWITCH || !caLid.find() ? null : Integer.valueOf(caLid.group(1));
            Matcher active = ACTIVE.matcher(comment);
            Integer width = null;
            LinkSpeed speed = null;
            if (active.find()) {
                width = Integer.valueOf(active.group(1));
                speed = LinkSpeed.ofName(active.group(2)).orElse(null);
            }
            ports.add(new DiscoveredFabric.Port(number, portGuid, lid, PortKey.guid(m.group(3)),
                    Integer.parseInt(m.group(4)), width, speed));
        }

        DiscoveredFabric.Node build() {
            return new DiscoveredFabric.Node(guid, type, portCount, description, lid, ports);
        }
    }
}
