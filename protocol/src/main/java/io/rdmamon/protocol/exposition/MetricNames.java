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

    /**
     * PMA counter names (IBTA spec vol. 1 §16.1.3, as {@code perfquery} prints them) → the kernel's file name for the
     * same counter under {@code /sys/class/infiniband/<dev>/ports/<n>/counters/} (drivers/infiniband/core/sysfs.c), so
     * that a fabric port's family is named as a host port's: {@code rdma_fabric_port_symbol_error_total} beside
     * {@code rdma_port_symbol_error_total}.
     */
    private static final Map<String, String> PMA_FILES = Map.ofEntries(
            Map.entry("SymbolErrorCounter", "symbol_error"),
            Map.entry("LinkErrorRecoveryCounter", "link_error_recovery"),
            Map.entry("LinkDownedCounter", "link_downed"),
            Map.entry("PortRcvErrors", "port_rcv_errors"),
            Map.entry("PortRcvRemotePhysicalErrors", "port_rcv_remote_physical_errors"),
            Map.entry("PortRcvSwitchRelayErrors", "port_rcv_switch_relay_errors"),
            Map.entry("PortXmitDiscards", "port_xmit_discards"),
            Map.entry("PortXmitConstraintErrors", "port_xmit_constraint_errors"),
            Map.entry("PortRcvConstraintErrors", "port_rcv_constraint_errors"),
            Map.entry("LocalLinkIntegrityErrors", "local_link_integrity_errors"),
            Map.entry("ExcessiveBufferOverrunErrors", "excessive_buffer_overrun_errors"),
            Map.entry("VL15Dropped", "VL15_dropped"),
            Map.entry("PortXmitWait", "port_xmit_wait"),
            Map.entry("PortXmitData", "port_xmit_data"),
            Map.entry("PortRcvData", "port_rcv_data"),
            Map.entry("PortXmitPkts", "port_xmit_packets"),
            Map.entry("PortRcvPkts", "port_rcv_packets"),
            Map.entry("PortUnicastXmitPkts", "unicast_xmit_packets"),
            Map.entry("PortUnicastRcvPkts", "unicast_rcv_packets"),
            Map.entry("PortMulticastXmitPkts", "multicast_xmit_packets"),
            Map.entry("PortMulticastRcvPkts", "multicast_rcv_packets"));
    private static final Map<String, Family> FABRIC_COUNTER_FAMILIES = new ConcurrentHashMap<>();

    private MetricNames() {
    }

    /** The family of {@code counters/<file>}. */
    static Family portCounterFamily(String file) {
        return memo(PORT_COUNTER_FAMILIES, file, f -> Family.counter(portCounter(f), "sysfs counters/" + f
                + (f.endsWith("_data") ? " x 4 (bytes)" : "") + ", as read"));
    }

    /**
     * The family of a fabric port's PMA counter {@code pma} ({@code PortXmitData}): named as the host port's counter
     * of the same kernel file with {@code rdma_fabric_port_} for {@code rdma_port_}; a counter the kernel has no file
     * for by its name in snake case ({@code FooBarCounter} → {@code rdma_fabric_port_foo_bar_counter}).
     */
    public static Family fabricPortCounterFamily(String pma) {
        return memo(FABRIC_COUNTER_FAMILIES, pma, p -> Family.counter(fabricPortCounter(p), "PMA " + p + " of the "
                + "fabric port" + (p.endsWith("Data") ? " x 4 (the PMA counts 4-byte words; bytes)" : "")
                + ", as the last sweep read it"));
    }

    /** {@code rdma_fabric_port_<...>}, without {@code _total}: see {@link #fabricPortCounterFamily}. */
    public static String fabricPortCounter(String pma) {
        String file = PMA_FILES.get(pma);
        if (file == null) {
            file = pma.replaceAll("([a-z0-9])([A-Z])", "$1_$2");
        }
        return "rdma_fabric_" + portCounter(file).substring("rdma_".length());
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
