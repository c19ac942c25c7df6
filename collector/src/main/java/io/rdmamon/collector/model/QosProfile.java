package io.rdmamon.collector.model;

import io.rdmamon.protocol.model.QosConfig;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * The parts of a RoCE port's QoS configuration that the fleet should share (qos_config_drift): trust, the PFC
 * priorities, the RoCE DSCP and the priority it maps to, the traffic class of each PFC priority (ETS prio_tc), and
 * whether ECN is on for the PFC priorities. A part that was not read is null and is not compared.
 *
 * @param trust             {@code dscp} or {@code pcp}
 * @param pfc               PFC-enabled priorities; null when PFC was not read
 * @param roceDscp          the DSCP RoCE uses on the port ({@link RoceDscp}); null when unknown
 * @param roceDscpPriority  the priority {@code roceDscp} is classified to (APP table under trust dscp, 0 under trust
 *                          pcp, as untagged RoCE carries no PCP); null when the DSCP is unknown or unmapped
 * @param losslessTc        traffic class per PFC priority, in {@code pfc} order; null when ETS was not read
 * @param ecnOnLossless     DCQCN np and rp on every PFC priority; null when the ECN files are absent
 */
public record QosProfile(String trust, SortedSet<Integer> pfc, Integer roceDscp, Integer roceDscpPriority,
                         List<Integer> losslessTc, Boolean ecnOnLossless) {

    /** The profile of {@code qos} with RoCE at {@code roceDscp} (null = unknown). */
    public static QosProfile of(QosConfig qos, Integer roceDscp) {
        SortedSet<Integer> pfc = qos.pfc() == null ? null : new TreeSet<>(qos.pfcPriorities());
        List<Integer> tcs = null;
        if (qos.ets() != null && pfc != null) {
            tcs = new ArrayList<>();
            for (int p : pfc) {
                tcs.add(p < qos.ets().priorityTc().size() ? qos.ets().priorityTc().get(p) : null);
            }
        }
        Boolean ecn = null;
        if (qos.ecn() != null && pfc != null && !pfc.isEmpty()) {
            ecn = pfc.stream().allMatch(p -> Boolean.TRUE.equals(qos.ecn().notificationPoint().get(p))
                    && Boolean.TRUE.equals(qos.ecn().reactionPoint().get(p)));
        }
        return new QosProfile(qos.trust(), pfc, roceDscp, roceDscp == null ? null : priorityOf(qos, roceDscp), tcs, ecn);
    }

    /** Where {@code dscp} lands on a port of {@code qos}: its APP entry under trust dscp, priority 0 under trust pcp. */
    public static Integer priorityOf(QosConfig qos, int dscp) {
        return "dscp".equals(qos.trust()) ? qos.priorityOfDscp(dscp) : Integer.valueOf(0);
    }

    /** "trust dscp, PFC {3}, DSCP 26 -> priority 3, priority 3 on TC 3, ECN on" with the unknown parts left out. */
    public String describe() {
        List<String> parts = new ArrayList<>();
        parts.add("trust " + trust);
        if (pfc != null) {
            parts.add("PFC " + braces(pfc));
        }
        if (roceDscp != null) {
            parts.add("DSCP " + roceDscp + " -> " + (roceDscpPriority == null ? "no priority" : "priority " + roceDscpPriority));
        }
        if (losslessTc != null && pfc != null && !pfc.isEmpty()) {
            List<String> tcs = new ArrayList<>();
            int i = 0;
            for (int p : pfc) {
                tcs.add(p + "->TC" + losslessTc.get(i++));
            }
            parts.add("prio_tc " + String.join(" ", tcs));
        }
        if (ecnOnLossless != null) {
            parts.add("ECN " + (ecnOnLossless ? "on" : "off"));
        }
        return String.join(", ", parts);
    }

    static String braces(SortedSet<Integer> priorities) {
        return "{" + String.join(",", priorities.stream().map(String::valueOf).toList()) + "}";
    }

    /** The profile the fleet runs, configured or the majority, with how many of the fleet's RoCE ports run it. */
    public record Fleet(QosProfile profile, int ports, int total, boolean configured) {
        public String origin() {
            return configured ? "the configured fleet profile" : "the fleet (" + ports + " of " + total + " RoCE ports)";
        }
    }

    /** The parts where this port differs from {@code fleet}, comparing only parts both sides know. */
    public List<String> differences(QosProfile fleet) {
        List<String> diffs = new ArrayList<>();
        if (fleet.trust != null && !Objects.equals(trust, fleet.trust)) {
            diffs.add("trust");
        }
        if (fleet.pfc != null && pfc != null && !pfc.equals(fleet.pfc)) {
            diffs.add("pfc");
        }
        if (fleet.roceDscpPriority != null && roceDscpPriority != null && roceDscp != null
                && Objects.equals(roceDscp, fleet.roceDscp) && !roceDscpPriority.equals(fleet.roceDscpPriority)) {
            diffs.add("dscp");
        }
        if (fleet.losslessTc != null && losslessTc != null && Objects.equals(pfc, fleet.pfc)
                && !losslessTc.equals(fleet.losslessTc)) {
            diffs.add("ets");
        }
        if (fleet.ecnOnLossless != null && ecnOnLossless != null && !ecnOnLossless.equals(fleet.ecnOnLossless)) {
            diffs.add("ecn");
        }
        return diffs;
    }
}
