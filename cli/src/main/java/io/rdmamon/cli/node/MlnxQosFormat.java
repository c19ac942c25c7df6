package io.rdmamon.cli.node;

import io.rdmamon.protocol.model.QosConfig;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.StringJoiner;
import java.util.function.IntFunction;

/**
 * {@code rdmamon qos} text in the layout of {@code mlnx_qos -i IF} (mlnx-tools {@code pretty_print},
 * docs/reference/qos-dcb.md §3.2):
 * DCBX mode, trust state, the dscp2prio mapping (per priority, DSCPs descending, 8 a line), receive buffers, cable
 * length, the PFC rows, then one {@code tc:} line per traffic class with its priorities. rdmamon adds what mlnx_qos
 * leaves to other tools, each only when known: the MLNX_OFED ECN rows, the CNP marking and the RoCE ToS settings.
 * A part that was not read says so instead of printing defaults.
 */
final class MlnxQosFormat {
    private static final int DSCPS_PER_LINE = 8;

    private MlnxQosFormat() {
    }

    static String text(QosConfig qos) {
        StringBuilder out = new StringBuilder();
        out.append("DCBX mode: ").append(qos.dcbx() == null ? "unknown"
                : (qos.dcbx() & QosConfig.DCBX_HOST) != 0 ? "OS controlled" : "Firmware controlled").append('\n');
        String trust = qos.trust();
        out.append("Priority trust state: ").append(trust).append('\n');
        if (trust.equals("dscp")) {
            dscpToPriority(qos, out);
        }
        if (qos.buffer() != null) {
            StringJoiner sizes = new StringJoiner(",");
            qos.buffer().bufferSizeBytes().forEach(size -> sizes.add(Long.toString(size)));
            out.append("Receive buffer size (bytes): ").append(sizes).append(",max_buffer_size=")
                    .append(qos.buffer().totalSizeBytes()).append('\n');
        }
        if (qos.pfc() == null) {
            out.append("PFC configuration: not read\n");
        } else {
            out.append("Cable len: ").append(qos.pfc().delay()).append('\n');
            out.append("PFC configuration:\n");
            out.append(row("priority", priority -> Integer.toString(priority)));
            out.append(row("enabled", priority -> qos.pfc().enabled(priority) ? "1" : "0"));
            if (qos.buffer() != null) {
                out.append(row("buffer", priority -> qos.buffer().priorityBuffer().get(priority).toString()));
            }
        }
        trafficClasses(qos, out);
        if (qos.ecn() != null) {
            ecn(qos.ecn(), out);
        }
        if (qos.trafficClass() != null) {
            out.append("RoCE traffic_class: ").append(tos(qos, qos.trafficClass())).append('\n');
        }
        if (qos.defaultRoceTos() != null) {
            out.append("rdma_cm default_roce_tos: ").append(tos(qos, qos.defaultRoceTos())).append('\n');
        }
        return out.toString();
    }

    /** {@code \tprio:3 dscp:31,30,29,28,27,26,25,24,}: the DSCPs the APP table maps to each priority, descending. */
    private static void dscpToPriority(QosConfig qos, StringBuilder out) {
        out.append("dscp2prio mapping:\n");
        for (int priority = 0; priority < QosConfig.PRIORITIES; priority++) {
            List<Integer> dscps = new ArrayList<>();
            for (int dscp = 63; dscp >= 0; dscp--) {
                Integer mapped = qos.priorityOfDscp(dscp);
                if (mapped != null && mapped == priority) {
                    dscps.add(dscp);
                }
            }
            if (dscps.isEmpty()) {
                continue;
            }
            out.append("\tprio:").append(priority).append(" dscp:");
            for (int i = 0; i < dscps.size(); i++) {
                if (i > 0 && i % DSCPS_PER_LINE == 0) {
                    out.append("\n\t       ");
                }
                out.append(String.format(Locale.ROOT, "%02d,", dscps.get(i)));
            }
            out.append('\n');
        }
    }

    private static void trafficClasses(QosConfig qos, StringBuilder out) {
        if (qos.ets() == null) {
            out.append("ETS configuration: not read\n");
            return;
        }
        QosConfig.Ets ets = qos.ets();
        for (int tc = 0; tc < QosConfig.PRIORITIES; tc++) {
            out.append("tc: ").append(tc).append(" ratelimit: ").append(rateLimit(qos, tc)).append(", tsa: ")
                    .append(ets.tcTsa().get(tc));
            if (ets.tcTsa().get(tc).equals("ets")) {
                out.append(", bw: ").append(ets.tcBandwidthPercent().get(tc)).append('%');
            }
            out.append('\n');
            for (int priority = 0; priority < QosConfig.PRIORITIES; priority++) {
                if (ets.priorityTc().get(priority) == tc) {
                    out.append("\t priority:  ").append(priority).append('\n');
                }
            }
        }
    }

    /** {@code tc_maxrate} is kbit/s, 0 unlimited; mlnx_qos prints Gbps with one decimal. */
    private static String rateLimit(QosConfig qos, int tc) {
        if (qos.tcMaxrateKbits() == null) {
            return "unknown";
        }
        long kbits = qos.tcMaxrateKbits().get(tc);
        return kbits == 0 ? "unlimited" : String.format(Locale.ROOT, "%.1f Gbps", kbits / 1e6);
    }

    private static void ecn(QosConfig.Ecn ecn, StringBuilder out) {
        out.append("ECN (DCQCN) enabled:\n");
        out.append(row("priority", priority -> Integer.toString(priority)));
        out.append(row("roce_np", priority -> bit(ecn.notificationPoint(), priority)));
        out.append(row("roce_rp", priority -> bit(ecn.reactionPoint(), priority)));
        if (ecn.cnpDscp() != null || ecn.cnpPriority() != null) {
            out.append("CNP: dscp ").append(ecn.cnpDscp() == null ? "unknown" : ecn.cnpDscp()).append(", priority ")
                    .append(ecn.cnpPriority() == null ? "unknown" : ecn.cnpPriority()).append('\n');
        }
    }

    /** {@code 1}, {@code 0}, or {@code ?} where the driver answered nothing. */
    private static String bit(Map<Integer, Boolean> enabled, int priority) {
        Boolean value = enabled.get(priority);
        return value == null ? "?" : value ? "1" : "0";
    }

    /** {@code 106 (DSCP 26 -> priority 3, PFC on)}: the ToS, its DSCP and where the APP table sends it. */
    private static String tos(QosConfig qos, int tos) {
        int dscp = tos >> 2;
        StringBuilder text = new StringBuilder().append(tos).append(" (DSCP ").append(dscp);
        if (qos.trust().equals("dscp")) {
            Integer priority = qos.priorityOfDscp(dscp);
            if (priority == null) {
                text.append(", not in the DSCP map");
            } else {
                text.append(" -> priority ").append(priority);
                if (qos.pfc() != null) {
                    text.append(qos.pfc().enabled(priority) ? ", PFC on" : ", no PFC");
                }
            }
        }
        return text.append(')').toString();
    }

    private static String row(String label, IntFunction<String> cell) {
        StringBuilder row = new StringBuilder("\t").append(String.format(Locale.ROOT, "%-12s", label));
        for (int priority = 0; priority < QosConfig.PRIORITIES; priority++) {
            row.append(String.format(Locale.ROOT, "%-4s", cell.apply(priority)));
        }
        return row.toString().stripTrailing() + "\n";
    }
}
