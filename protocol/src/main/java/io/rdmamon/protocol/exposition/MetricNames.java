package io.rdmamon.protocol.exposition;

import io.prometheus.metrics.model.snapshots.PrometheusNaming;

import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * Names of the per-counter families (docs/architecture.md "Metric names"). Names are given without {@code _total}: the
 * exposition adds it to counters.
 */
public final class MetricNames {
    private static final Map<String, String> PORT_SPECIAL = Map.of(
            "port_rcv_data", "rdma_port_data_received_bytes",
            "port_xmit_data", "rdma_port_data_transmitted_bytes",
            "port_rcv_packets", "rdma_port_packets_received",
            "port_xmit_packets", "rdma_port_packets_transmitted");

    /**
     * Counter families by file name, so that a scrape sanitises each name once, not once per port. Agents
     * choose the file names, so the memo is bounded; past the bound a family is built per use.
     */
    private static final int MEMO_LIMIT = 4096;
    private static final Map<String, Family> PORT_COUNTER_FAMILIES = new ConcurrentHashMap<>();
    private static final Map<String, Family> HW_COUNTER_FAMILIES = new ConcurrentHashMap<>();

    private MetricNames() {
    }

    /** The family of {@code counters/<file>}. */
    static Family portCounterFamily(String file) {
        return memo(PORT_COUNTER_FAMILIES, file, f -> Family.counter(portCounter(f), "sysfs counters/" + f
                + (f.endsWith("_data") ? " x 4 (bytes)" : "") + ", as read"));
    }

    /** The family of {@code hw_counters/<file>}. */
    static Family hwCounterFamily(String file) {
        return memo(HW_COUNTER_FAMILIES, file, f -> Family.counter(hwCounter(f), "sysfs hw_counters/" + f + ", as read"));
    }

    private static Family memo(Map<String, Family> memo, String file, Function<String, Family> build) {
        Family family = memo.get(file);
        if (family != null) {
            return family;
        }
        family = build.apply(file);
        if (memo.size() < MEMO_LIMIT) {
            memo.putIfAbsent(file, family);
        }
        return family;
    }

    /**
     * {@code counters/<file>}: the four data/packet counters by their node_exporter-style names,
     * every other file as {@code rdma_port_<file without port_>} (e.g. port_xmit_wait → rdma_port_xmit_wait,
     * VL15_dropped → rdma_port_vl15_dropped).
     */
    public static String portCounter(String file) {
        String special = PORT_SPECIAL.get(file);
        if (special != null) {
            return special;
        }
        String name = file.startsWith("port_") ? file.substring("port_".length()) : file;
        return "rdma_port_" + sanitize(name);
    }

    /** {@code hw_counters/<file>} as {@code rdma_hw_<file>}. */
    public static String hwCounter(String file) {
        return "rdma_hw_" + sanitize(file);
    }

    /**
     * Lower case (the kernel's file names are lower case but for VL15_dropped), anything outside
     * {@code [a-z0-9_]} as {@code _}, a trailing {@code _total} dropped (the exposition adds it), and
     * {@code _value} appended when the result would end in a suffix Prometheus reserves.
     */
    static String sanitize(String file) {
        String name = underscoreInvalid(file.toLowerCase(Locale.ROOT));
        if (name.endsWith("_total")) {
            name = name.substring(0, name.length() - "_total".length());
        }
        return PrometheusNaming.isValidMetricName("rdma_" + name) ? name : name + "_value";
    }

    /** Every run of characters outside {@code [a-z0-9_]} as one {@code _}. */
    private static String underscoreInvalid(String name) {
        StringBuilder b = new StringBuilder(name.length());
        boolean inRun = false;
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            boolean valid = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
            if (valid) {
                b.append(c);
            } else if (!inRun) {
                b.append('_');
            }
            inRun = !valid;
        }
        return b.toString();
    }
}
