package io.rdmamon.collector.diagnosis.rules;

import io.rdmamon.collector.fabric.FabricFinding;
import io.rdmamon.collector.fabric.FabricInput;
import io.rdmamon.collector.fabric.FabricRule;
import io.rdmamon.collector.fabric.FabricTiers;
import io.rdmamon.collector.fabric.LinkEnds;
import io.rdmamon.collector.model.Rule;
import io.rdmamon.protocol.fabric.FabricLink;
import io.rdmamon.protocol.fabric.FabricPort;
import io.rdmamon.protocol.fabric.LinkSpeed;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToIntFunction;

/**
 * fabric_link_degraded: an up link runs narrower or slower than <em>both</em> what its two ends enable (PortInfo
 * {@code LinkWidthEnabled}/{@code LinkSpeedEnabled}; the supported values where a port reports none enabled) and
 * what most other links between the same two tiers run at (hosts–leaves, leaves–spines; ties to the faster). The
 * second test keeps a fabric whose ports all claim more than they train (ibsim's claim 12X and QDR, train 4X SDR) from
 * flagging every link, while a 1X link among 4X ones is caught. A link alone between its two tiers is not judged:
 * there is nothing to compare it with (docs/diagnosis.md). Tiers: {@link FabricTiers}.
 */
public final class FabricLinkDegraded implements FabricRule {
    @Override
    public Rule id() {
        return Rule.FABRIC_LINK_DEGRADED;
    }

    /** A link at its tiers: its width in lanes and its speed's rank. */
    private record Trained(FabricLink link, String tiers, int width, int speed) {
    }

    @Override
    public List<FabricFinding> evaluate(FabricInput in) {
        Map<String, Integer> tier = FabricTiers.of(in.current());
        Map<String, List<Trained>> byTiers = new HashMap<>();
        for (FabricLink link : in.links()) {
            FabricPort a = link.a().port();
            FabricPort b = link.b().port();
            if (!a.up() || !b.up() || a.width() == null || b.width() == null || a.speed() == null || b.speed() == null) {
                continue;
            }
            int ta = tier.get(link.a().node().guid());
            int tb = tier.get(link.b().node().guid());
            String tiers = Math.min(ta, tb) + "-" + Math.max(ta, tb);
            byTiers.computeIfAbsent(tiers, k -> new ArrayList<>()).add(new Trained(link, tiers,
                    Math.min(a.width(), b.width()), Math.min(a.speed().ordinal(), b.speed().ordinal())));
        }
        List<FabricFinding> findings = new ArrayList<>();
        for (List<Trained> group : byTiers.values()) {
            for (Trained t : group) {
                List<Trained> peers = group.stream().filter(p -> p != t).toList();
                if (peers.isEmpty()) {
                    continue;
                }
                int peerWidth = mostCommon(peers, Trained::width);
                int peerSpeed = mostCommon(peers, Trained::speed);
                Integer enabledWidth = enabledWidth(t.link());
                Integer enabledSpeed = enabledSpeed(t.link());
                boolean narrow = enabledWidth != null && t.width() < enabledWidth && t.width() < peerWidth;
                boolean slow = enabledSpeed != null && t.speed() < enabledSpeed && t.speed() < peerSpeed;
                if (narrow || slow) {
                    findings.add(finding(in, t, peerWidth, peerSpeed, enabledWidth, enabledSpeed, peers.size()));
                }
            }
        }
        return findings;
    }

    private FabricFinding finding(FabricInput in, Trained t, int peerWidth, int peerSpeed, Integer enabledWidth,
                                  Integer enabledSpeed, int peers) {
        LinkEnds ends = LinkEnds.of(t.link());
        LinkSpeed[] speeds = LinkSpeed.values();
        String evidence = "trained " + t.width() + "X " + speeds[t.speed()] + " where both ends enable "
                + (enabledWidth == null ? "?" : enabledWidth + "X") + " "
                + (enabledSpeed == null ? "?" : speeds[enabledSpeed].name()) + " and most of the " + peers
                + " other link(s) between the same tiers run " + peerWidth + "X " + speeds[peerSpeed] + "; "
                + FabricEvidence.end(t.link().a()) + " " + FabricEvidence.rate(t.link().a().port()) + ", "
                + FabricEvidence.end(t.link().b()) + " " + FabricEvidence.rate(t.link().b().port()) + ", on the "
                + FabricEvidence.link(in, ends);
        return new FabricFinding(id(), ends, evidence, Map.of("width", (double) t.width(),
                "peerWidth", (double) peerWidth, "speedGbps", Double.parseDouble(speeds[t.speed()].gbps()),
                "peerSpeedGbps", Double.parseDouble(speeds[peerSpeed].gbps())));
    }

    /** The value most peers have; of equally common ones the largest. */
    private static int mostCommon(Collection<Trained> peers, ToIntFunction<Trained> value) {
        Map<Integer, Integer> counts = new HashMap<>();
        peers.forEach(p -> counts.merge(value.applyAsInt(p), 1, Integer::sum));
        return counts.entrySet().stream().max(Map.Entry.<Integer, Integer>comparingByValue()
                .thenComparing(Map.Entry.comparingByKey())).orElseThrow().getKey();
    }

    /** The widest width both ends enable (their supported widths where one reports none enabled); null: unknown. */
    private static Integer enabledWidth(FabricLink link) {
        Integer a = max(widths(link.a().port()));
        Integer b = max(widths(link.b().port()));
        return a == null || b == null ? null : Math.min(a, b);
    }

    private static Integer enabledSpeed(FabricLink link) {
        Integer a = max(speeds(link.a().port()));
        Integer b = max(speeds(link.b().port()));
        return a == null || b == null ? null : Math.min(a, b);
    }

    private static List<Integer> widths(FabricPort port) {
        return port.widthsEnabled().isEmpty() ? port.widthsSupported() : port.widthsEnabled();
    }

    private static List<Integer> speeds(FabricPort port) {
        return (port.speedsEnabled().isEmpty() ? port.speedsSupported() : port.speedsEnabled()).stream()
                .map(LinkSpeed::ordinal).toList();
    }

    private static Integer max(List<Integer> values) {
        return values.stream().max(Integer::compare).orElse(null);
    }
}
