package io.rdmamon.collector.diagnosis.rules;

import io.rdmamon.collector.fabric.FabricFinding;
import io.rdmamon.collector.fabric.FabricInput;
import io.rdmamon.collector.fabric.FabricRule;
import io.rdmamon.collector.fabric.LinkEnds;
import io.rdmamon.collector.model.Rule;
import io.rdmamon.protocol.fabric.FabricLink;
import io.rdmamon.protocol.fabric.NodeType;
import io.rdmamon.protocol.fabric.PmaCounters;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalLong;

/**
 * fabric_congestion: a switch port's share of waiting between two sweeps is at least {@link #THRESHOLD}. The PMA
 * does not say how long a PortXmitWait tick is, so the share is measured against the port's own transmissions: the
 * ticks it waited over the ticks it waited plus the 4-byte words it sent (PortXmitData), in the same interval. A port
 * that waited fewer than {@link #MIN_WAIT_TICKS} ticks is not judged (a rounding blip of an idle port). One finding per
 * link with a hot switch port; the evidence names the hot ports of that link and how many others the fabric has.
 */
public final class FabricCongestion implements FabricRule {
    public static final double THRESHOLD = 0.2;
    public static final long MIN_WAIT_TICKS = 1000;
    /** Other hot ports the evidence names at most. */
    private static final int NAMED_OTHERS = 5;

    @Override
    public Rule id() {
        return Rule.FABRIC_CONGESTION;
    }

    /** A hot switch port: its link and its wait share. */
    private record Hot(FabricLink link, FabricLink.End end, double share, long waitTicks) {
        String describe() {
            return FabricEvidence.end(end) + " waited " + String.format(Locale.ROOT, "%.0f%%", share * 100) + " ("
                    + waitTicks + " ticks)";
        }
    }

    @Override
    public List<FabricFinding> evaluate(FabricInput in) {
        List<Hot> hot = new ArrayList<>();
        for (FabricLink link : in.links()) {
            for (FabricLink.End end : List.of(link.a(), link.b())) {
                if (end.node().type() != NodeType.SWITCH) {
                    continue;
                }
                OptionalLong wait = in.rise(end, PmaCounters.PORT_XMIT_WAIT);
                if (wait.isEmpty() || wait.getAsLong() < MIN_WAIT_TICKS) {
                    continue;
                }
                long words = in.rise(end, "PortXmitData").orElse(0);
                double share = wait.getAsLong() / ((double) wait.getAsLong() + words);
                if (share >= THRESHOLD) {
                    hot.add(new Hot(link, end, share, wait.getAsLong()));
                }
            }
        }
        Map<FabricLink, List<Hot>> byLink = new LinkedHashMap<>();
        hot.forEach(h -> byLink.computeIfAbsent(h.link(), k -> new ArrayList<>()).add(h));
        List<FabricFinding> findings = new ArrayList<>();
        for (Map.Entry<FabricLink, List<Hot>> entry : byLink.entrySet()) {
            LinkEnds ends = LinkEnds.of(entry.getKey());
            List<String> here = entry.getValue().stream().map(Hot::describe).toList();
            List<String> others = hot.stream().filter(h -> h.link() != entry.getKey()).limit(NAMED_OTHERS)
                    .map(Hot::describe).toList();
            long otherCount = hot.size() - entry.getValue().size();
            String evidence = String.join(", ", here) + " of its transmit time in " + in.elapsedMillis() / 1000
                    + " s (threshold " + (int) (THRESHOLD * 100) + "%), on the " + FabricEvidence.link(in, ends)
                    + (otherCount == 0 ? "; no other hot port in the fabric" : "; " + otherCount
                    + " other hot port(s) in the fabric: " + String.join(", ", others)
                    + (otherCount > NAMED_OTHERS ? ", …" : ""));
            double worst = entry.getValue().stream().mapToDouble(Hot::share).max().orElse(0);
            findings.add(new FabricFinding(id(), ends, evidence, Map.of("waitShare", worst,
                    "hotPortsInFabric", (double) hot.size())));
        }
        return findings;
    }
}
