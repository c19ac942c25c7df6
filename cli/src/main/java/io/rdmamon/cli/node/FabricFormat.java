package io.rdmamon.cli.node;

import io.rdmamon.protocol.fabric.FabricLink;
import io.rdmamon.protocol.fabric.FabricNode;
import io.rdmamon.protocol.fabric.FabricPort;
import io.rdmamon.protocol.fabric.FabricSweep;
import io.rdmamon.protocol.fabric.LinkSpeed;
import io.rdmamon.protocol.fabric.PmaCounters;

import java.util.List;
import java.util.stream.Collectors;

/**
 * {@code rdmamon fabric}'s text: a summary line, the nodes, the links (both ends, {@code iblinkinfo}'s width, speed,
 * state and "could be"), ports with nothing linked, and each port's non-zero counters ({@code ibqueryerrors}'s
 * {@code [Name == value]} lists). Pure.
 */
final class FabricFormat {
    private FabricFormat() {
    }

    static String text(FabricSweep sweep, boolean errorsOnly) {
        StringBuilder out = new StringBuilder();
        List<FabricLink> links = sweep.links();
        out.append(String.format("Fabric %s, SM lid %s, swept from %s in %d ms: %d nodes, %d links%s%n",
                sweep.subnetPrefix(), sweep.smLid() == null ? "-" : sweep.smLid(), sweep.sweeper(),
                sweep.durationMillis(), sweep.nodes().size(), links.size(),
                sweep.success() ? "" : ", " + sweep.problems().size() + " problem(s)"));
        if (!errorsOnly) {
            out.append("Nodes:\n");
            for (FabricNode n : sweep.nodes()) {
                out.append(String.format("  %-6s %s %3d ports \"%s\"%n", n.type(), n.guid(), n.ports().size(),
                        n.description()));
            }
            out.append("Links:\n");
            for (FabricLink l : links) {
                out.append("  ").append(end(l.a())).append(" <==> ").append(end(l.b())).append("  ")
                        .append(link(l.a().port())).append('\n');
            }
            List<String> unlinked = sweep.nodes().stream().flatMap(n -> n.ports().stream().filter(p -> !p.linked())
                    .map(p -> "  " + end(new FabricLink.End(n, p)) + "  " + p.state() + "/" + p.physState())).toList();
            if (!unlinked.isEmpty()) {
                out.append("Ports with nothing linked:\n");
                unlinked.forEach(line -> out.append(line).append('\n'));
            }
        }
        out.append(errorsOnly ? "Errors:\n" : "Counters:\n");
        for (FabricNode n : sweep.nodes()) {
            for (FabricPort p : n.ports()) {
                String counters = p.counters().entrySet().stream().filter(e -> e.getValue() != 0)
                        .filter(e -> !errorsOnly || isError(e.getKey()))
                        .map(e -> "[" + e.getKey() + " == " + Long.toUnsignedString(e.getValue()) + "]")
                        .collect(Collectors.joining(" "));
                if (!counters.isEmpty()) {
                    out.append("  ").append(end(new FabricLink.End(n, p))).append(": ").append(counters).append('\n');
                }
            }
        }
        return out.toString();
    }

    /** The sweep with only the ports that have an error counter above 0, and the nodes that hold them. */
    static FabricSweep errorsOnly(FabricSweep sweep) {
        List<FabricNode> nodes = sweep.nodes().stream()
                .map(n -> new FabricNode(n.guid(), n.type(), n.description(), n.ports().stream()
                        .filter(FabricFormat::hasErrors).toList()))
                .filter(n -> !n.ports().isEmpty()).toList();
        return sweep.withNodes(nodes);
    }

    private static boolean hasErrors(FabricPort port) {
        return port.counters().entrySet().stream().anyMatch(e -> isError(e.getKey()) && e.getValue() != 0);
    }

    private static boolean isError(String counter) {
        return PmaCounters.isError(counter) || counter.equals(PmaCounters.PORT_XMIT_WAIT);
    }

    private static String end(FabricLink.End end) {
        FabricPort p = end.port();
        return String.format("\"%s\" %s[%d] lid %s", end.node().description(), end.node().guid(), p.number(),
                p.lid() == null ? "-" : p.lid());
    }

    /** {@code 4X SDR Active/LinkUp (could be 12X QDR)}, as iblinkinfo says it. */
    private static String link(FabricPort p) {
        String width = p.width() == null ? "" : p.width() + "X ";
        String speed = p.speed() == null ? "" : p.speed() + " ";
        String couldBe = couldBe(p.widthsSupported().stream().max(Integer::compare).orElse(null), p.width(), "X")
                + couldBe(p.speedsSupported().stream().max(Enum::compareTo).map(LinkSpeed::name).orElse(null),
                p.speed() == null ? null : p.speed().name(), "");
        return width + speed + p.state() + "/" + p.physState() + (couldBe.isEmpty() ? "" : " (could be" + couldBe + ")");
    }

    private static String couldBe(Object best, Object active, String unit) {
        return best == null || best.equals(active) ? "" : " " + best + unit;
    }
}
