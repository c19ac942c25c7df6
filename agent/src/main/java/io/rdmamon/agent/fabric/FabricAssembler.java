package io.rdmamon.agent.fabric;

import io.rdmamon.protocol.fabric.FabricNode;
import io.rdmamon.protocol.fabric.FabricPort;
import io.rdmamon.protocol.fabric.LinkSpeed;
import io.rdmamon.protocol.fabric.PmaCounters;
import io.rdmamon.protocol.fabric.PortState;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Joins what the diags tools printed into the fabric model: ibnetdiscover's nodes and links, iblinkinfo's port
 * states, widths and speeds (its "Could be" as the supported value), and ibqueryerrors' counters. Pure.
 *
 * <p>ibqueryerrors prints an error counter only when it is above its threshold (0 here), and lists a port in its
 * {@code --counters} run only when the port answered PMA: so a port it listed has every PortCounters error counter,
 * 0 unless printed; a port it did not list has no counters, and its node is named in the problems.
 */
final class FabricAssembler {
    private FabricAssembler() {
    }

    /** The nodes, with the problems found on the way appended to {@code problems}. */
    static List<FabricNode> nodes(DiscoveredFabric fabric, Map<PortKey, IbLinkInfoText.Line> linkInfo,
                                  IbQueryErrorsText.Result errors, IbQueryErrorsText.Result data,
                                  List<String> problems) {
        Map<PortKey, IbLinkInfoText.Line> lines = resolved(fabric, linkInfo);
        Map<PortKey, Map<String, Long>> errorCounters = errors == null ? Map.of() : resolved(fabric, errors.counters());
        Map<PortKey, Map<String, Long>> dataCounters = data == null ? Map.of() : resolved(fabric, data.counters());
        List<FabricNode> nodes = new ArrayList<>(fabric.nodes().size());
        for (DiscoveredFabric.Node n : fabric.nodes()) {
            Map<Integer, DiscoveredFabric.Port> linked = new TreeMap<>();
            n.ports().forEach(p -> linked.put(p.number(), p));
            TreeMap<Integer, FabricPort> ports = new TreeMap<>();
            boolean anyCounters = false;
            for (int number = 1; number <= n.portCount(); number++) {
                PortKey key = new PortKey(n.guid(), number);
                DiscoveredFabric.Port link = linked.get(number);
                IbLinkInfoText.Line line = lines.get(key);
                if (link == null && line == null) {
                    continue;
                }
                Map<String, Long> dataOfPort = dataCounters.get(key);
                anyCounters |= dataOfPort != null;
                ports.put(number, port(number, n, link, line, dataOfPort, errorCounters.get(key)));
            }
            if (data != null && !anyCounters && !ports.isEmpty()) {
                problems.add("node " + n.guid() + " \"" + n.description() + "\": no port answered PMA queries "
                        + "(PortCounters); its counters are skipped");
            }
            nodes.add(new FabricNode(n.guid(), n.type(), n.description(), List.copyOf(ports.values())));
        }
        return nodes;
    }

    private static FabricPort port(int number, DiscoveredFabric.Node node, DiscoveredFabric.Port link,
                                   IbLinkInfoText.Line line, Map<String, Long> data, Map<String, Long> errors) {
        Integer lid = line != null ? Integer.valueOf(line.lid()) : link.lid() != null ? link.lid() : node.lid();
        int stateId = line == null ? 0 : line.stateId();
        int physStateId = line == null ? 0 : line.physStateId();
        Integer width = line != null && line.width() != null ? line.width() : link == null ? null : link.width();
        LinkSpeed speed = line != null && line.speed() != null ? line.speed() : link == null ? null : link.speed();
        Integer couldBeWidth = line == null ? null : line.couldBeWidth();
        LinkSpeed couldBeSpeed = line == null ? null : line.couldBeSpeed();
        List<Integer> widths = couldBeWidth != null ? List.of(couldBeWidth) : width != null ? List.of(width) : List.of();
        List<LinkSpeed> speeds = couldBeSpeed != null ? List.of(couldBeSpeed) : speed != null ? List.of(speed) : List.of();
        List<String> sets = List.of();
        Map<String, Long> counters = new LinkedHashMap<>();
        if (data != null) {
            PmaCounters.ERRORS.forEach(name -> counters.put(name, 0L));
            counters.put(PmaCounters.PORT_XMIT_WAIT, 0L);
            if (errors != null) {
                counters.putAll(errors);
            }
            counters.putAll(data);
            sets = data.containsKey(PmaCounters.EXTENDED_PACKETS.get(0))
                    ? List.of(PmaCounters.PORT_COUNTERS, PmaCounters.PORT_COUNTERS_EXTENDED)
                    : List.of(PmaCounters.PORT_COUNTERS);
        }
        boolean stateKnown = line != null;
        return new FabricPort(number, lid, stateId, stateKnown ? PortState.stateName(stateId) : "unknown", physStateId,
                stateKnown ? PortState.physStateName(physStateId) : "unknown", width, speed, widths, speeds, List.of(),
                List.of(), link == null ? null : link.remoteGuid(), link == null ? null : link.remotePort(), sets,
                counters);
    }

    /** {@code byTool} keyed by node GUID and port, whatever GUID the tool printed; keys no node owns are dropped. */
    private static <V> Map<PortKey, V> resolved(DiscoveredFabric fabric, Map<PortKey, V> byTool) {
        Map<PortKey, V> resolved = new LinkedHashMap<>();
        byTool.forEach((key, value) -> {
            PortKey own = fabric.resolve(key);
            if (own != null) {
                resolved.put(own, value);
            }
        });
        return resolved;
    }
}
