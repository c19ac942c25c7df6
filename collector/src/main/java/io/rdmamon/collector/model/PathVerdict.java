package io.rdmamon.collector.model;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * The likely culprit behind bad pingmesh pairs, as the pingmesh's {@code PathLocalizer} names it from their pattern.
 * The diagnosis rules {@code path_loss}, {@code path_latency_high} and {@code port_unreachable} are raised from it on
 * each port of {@link #ports} (docs/pingmesh.md "Verdicts").
 *
 * @param rule        {@link Rule#PATH_LOSS}, {@link Rule#PATH_LATENCY_HIGH} or {@link Rule#PORT_UNREACHABLE}
 * @param culprit     what kind of place is blamed
 * @param culpritName the port ({@code node/device/port}), the group, {@code "A ↔ B"} ({@link #BETWEEN}) for the link
 *                    between the only two groups, {@code spine}, or {@code "src → dst"} ({@link #TO}) for one path
 * @param ports       where the rule is raised: the culprit port; every port of a group; the ports of the bad pairs
 *                    for the spine; the source port of a path
 * @param ends        the ports whose counters back the verdict: the culprit port; both ends of a path; none for a
 *                    group or the spine (each port raised on shows its own)
 * @param lossRatio   lost / sent round trips over the bad pairs behind the verdict; NaN when they sent none
 * @param p50Seconds  the median of those pairs' p50 round-trip times; NaN when none was answered
 * @param p99Seconds  the worst of their p99 round-trip times; NaN when none was answered
 * @param affected    how much of the culprit's reach is bad: peers of a port, other groups of a group, group pairs
 *                    for the spine, 1 for a path
 * @param judged      out of how many (peers, other groups, group pairs) were judged
 * @param evidence    the pattern in words, one line each: pairs affected, loss, RTT, example pairs
 */
public record PathVerdict(Rule rule, Culprit culprit, String culpritName, List<PortKey> ports, List<PortKey> ends,
                          double lossRatio, double p50Seconds, double p99Seconds, int affected, int judged,
                          List<String> evidence) {
    /** Joins the two groups of a {@link Culprit#GROUP} verdict that blames the link between the only two groups. */
    public static final String BETWEEN = " ↔ ";
    /** Joins the two ends of a {@link Culprit#PATH} verdict. */
    public static final String TO = " → ";

    /** The kind of place a verdict blames. */
    public enum Culprit {
        /** One port: its host (NIC, driver, CPU) or its link to the switch. */
        PORT,
        /** One group's switch or its uplinks; between the only two groups, either side's uplink. */
        GROUP,
        /** The layer above the groups: bad pairs between most group pairs. */
        SPINE,
        /** One path between two ports, neither of which is bad with others. */
        PATH;

        /** The contract string: {@code port}, {@code group}, {@code spine}, {@code path}. */
        public String id() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    public PathVerdict {
        Objects.requireNonNull(rule, "rule");
        Objects.requireNonNull(culprit, "culprit");
        Objects.requireNonNull(culpritName, "culpritName");
        ports = List.copyOf(ports);
        ends = List.copyOf(ends);
        evidence = List.copyOf(evidence);
    }

    /**
     * The verdict as {@code GET /api/pingmesh} lists it: {@code {"rule", "culprit", "culpritName", "description",
     * "ports": [{"node", "device", "port"}…], "ends": […], "lossRatio", "p50Seconds", "p99Seconds", "affected",
     * "judged", "evidence": […]}}; a ratio or time that is not known (NaN) is left out.
     */
    public JsonObject toJson() {
        JsonObject json = new JsonObject().put("rule", rule.id()).put("culprit", culprit.id())
                .put("culpritName", culpritName).put("description", describe())
                .put("ports", ports(ports)).put("ends", ports(ends));
        putFinite(json, "lossRatio", lossRatio);
        putFinite(json, "p50Seconds", p50Seconds);
        putFinite(json, "p99Seconds", p99Seconds);
        return json.put("affected", affected).put("judged", judged).put("evidence", new JsonArray(evidence));
    }

    private static JsonArray ports(List<PortKey> keys) {
        JsonArray array = new JsonArray();
        keys.forEach(k -> array.add(new JsonObject().put("node", k.node()).put("device", k.device()).put("port", k.port())));
        return array;
    }

    private static void putFinite(JsonObject json, String key, double value) {
        if (Double.isFinite(value)) {
            json.put(key, value);
        }
    }

    /** The culprit as the evidence names it, with what it stands for. */
    public String describe() {
        return switch (culprit) {
            case PORT -> "port " + culpritName + " (its host or its link)";
            case GROUP -> culpritName.contains(BETWEEN)
                    ? "the link between groups " + culpritName + " (either group's uplink: two groups cannot tell which)"
                    : "group " + culpritName + " (its switch or its uplinks)";
            case SPINE -> "the spine (fabric-wide)";
            case PATH -> "the path " + culpritName;
        };
    }
}
