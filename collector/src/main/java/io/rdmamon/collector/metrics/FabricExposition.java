package io.rdmamon.collector.metrics;

import io.rdmamon.collector.fabric.FabricState;
import io.rdmamon.protocol.exposition.ExpositionAssembler;
import io.rdmamon.protocol.exposition.ExpositionBytes;
import io.rdmamon.protocol.exposition.Family;
import io.rdmamon.protocol.exposition.MetricNames;
import io.rdmamon.protocol.exposition.MetricSelection;
import io.rdmamon.protocol.exposition.NodeRenderer;
import io.rdmamon.protocol.fabric.FabricNode;
import io.rdmamon.protocol.fabric.FabricPort;
import io.rdmamon.protocol.fabric.LinkSpeed;
import io.rdmamon.protocol.fabric.NodeType;

import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import static io.rdmamon.protocol.exposition.MetricFamilies.FABRIC_LINK_INFO;
import static io.rdmamon.protocol.exposition.MetricFamilies.FABRIC_NODES;
import static io.rdmamon.protocol.exposition.MetricFamilies.FABRIC_SWEEP_DURATION;
import static io.rdmamon.protocol.exposition.MetricFamilies.FABRIC_SWEEP_SUCCESS;

/**
 * The {@code rdma_fabric_*} families of docs/metrics.md from the fabrics the store holds: every PMA counter of every
 * port labelled with both ends of its link ({@code subnet, node, node_guid, port, remote, remote_port}; a port with
 * nothing linked has empty {@code remote} labels), each port's link state, the node counts and each sweeper's last
 * sweep. A family the selection leaves out is not rendered at all (a 40,000-port fabric under {@code minimal}: the
 * error counters and link state only, docs/performance.md). Rendered once, when made; immutable after.
 */
final class FabricExposition {
    /** The PMA counts these in 4-byte words (IBTA vol. 1 §16.1.3.5); exported in bytes, as the host ports' data. */
    private static final Set<String> WORD_COUNTERS = Set.of("PortXmitData", "PortRcvData");
    private final MetricSelection selection;
    private final NodeRenderer renderer;
    private final List<FabricState> fabrics;
    private final Map<Family, ExpositionBytes> families = new LinkedHashMap<>();

    /** Renders {@code fabrics} as {@code selection} says. */
    FabricExposition(MetricSelection selection, NodeRenderer renderer, List<FabricState> fabrics) {
        this.selection = selection;
        this.renderer = renderer;
        this.fabrics = fabrics;
        render();
    }

    /** The fabrics rendered (the store's snapshot: a new list on every change). */
    List<FabricState> fabrics() {
        return fabrics;
    }

    /** Adds every family to {@code out}. */
    void addTo(ExpositionAssembler out) {
        families.forEach(out::add);
    }

    private void render() {
        boolean info = selection.includes(FABRIC_LINK_INFO);
        for (FabricState fabric : fabrics) {
            Map<String, String> descriptions = new HashMap<>();
            fabric.sweep().nodes().forEach(n -> descriptions.put(n.guid(), n.description()));
            Map<NodeType, Integer> types = new EnumMap<>(NodeType.class);
            for (FabricNode node : fabric.sweep().nodes()) {
                types.merge(node.type(), 1, Integer::sum);
                for (FabricPort port : node.ports()) {
                    String remote = port.linked() ? descriptions.getOrDefault(port.remoteGuid(), port.remoteGuid()) : "";
                    String remotePort = port.linked() ? Integer.toString(port.remotePort()) : "";
                    counters(fabric.subnet(), node, port, remote, remotePort);
                    if (info) {
                        bytes(FABRIC_LINK_INFO).info(FABRIC_LINK_INFO.sampleName(), renderer.labels(
                                "node", node.description(), "node_guid", node.guid(), "phys_state", port.physState(),
                                "port", Integer.toString(port.number()), "remote", remote, "remote_port", remotePort,
                                "speed", port.speed() == null ? "" : port.speed().name(), "state", port.state(),
                                "subnet", fabric.subnet(), "supported_speed", speeds(port.speedsSupported()),
                                "supported_width", widths(port.widthsSupported()),
                                "width", port.width() == null ? "" : port.width() + "X"));
                    }
                }
            }
            types.forEach((type, count) -> bytes(FABRIC_NODES).sample(FABRIC_NODES.sampleName(),
                    renderer.labels("subnet", fabric.subnet(), "type", type.name()), count));
            for (FabricState.SweeperStatus sweeper : fabric.sweepers()) {
                byte[] labels = renderer.labels("subnet", fabric.subnet(), "sweeper", sweeper.sweeper());
                bytes(FABRIC_SWEEP_DURATION).sample(FABRIC_SWEEP_DURATION.sampleName(), labels,
                        sweeper.durationMillis() / 1000.0);
                bytes(FABRIC_SWEEP_SUCCESS).sample(FABRIC_SWEEP_SUCCESS.sampleName(), labels, sweeper.success() ? 1 : 0);
            }
        }
    }

    private void counters(String subnet, FabricNode node, FabricPort port, String remote, String remotePort) {
        byte[] labels = null; // built once per port, for the first family the selection keeps
        for (Map.Entry<String, Long> counter : port.counters().entrySet()) {
            Family family = MetricNames.fabricPortCounterFamily(counter.getKey());
            if (!selection.includes(family)) {
                continue;
            }
            if (labels == null) {
                labels = renderer.labels("node", node.description(), "node_guid", node.guid(), "port",
                        Integer.toString(port.number()), "remote", remote, "remote_port", remotePort, "subnet", subnet);
            }
            double value = unsigned(counter.getValue());
            bytes(family).sample(family.sampleName(), labels,
                    WORD_COUNTERS.contains(counter.getKey()) ? value * 4 : value);
        }
    }

    private ExpositionBytes bytes(Family family) {
        return families.computeIfAbsent(family, f -> new ExpositionBytes(4096));
    }

    /** A u64 counter (negative as a signed long: above 2^63) as a double. */
    private static double unsigned(long value) {
        return value >= 0 ? value : (double) (value >>> 1) * 2.0 + (value & 1);
    }

    private static String widths(List<Integer> widths) {
        return widths.stream().map(w -> w + "X").collect(Collectors.joining(","));
    }

    private static String speeds(List<LinkSpeed> speeds) {
        return speeds.stream().map(LinkSpeed::name).collect(Collectors.joining(","));
    }
}
