package io.rdmamon.cli.node;

import io.rdmamon.protocol.model.EthtoolStats;
import io.rdmamon.protocol.model.IbDevice;
import io.rdmamon.protocol.model.IbPort;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/**
 * One read of the counters {@code rdmamon perf} watches, in display order, and which of them
 * count bytes (printed as Bps and Mbps).
 *
 * @param values       counter values by display name, in kernel order
 * @param byteCounters names of the counters that count bytes
 */
public record PerfCounters(Map<String, Long> values, Set<String> byteCounters) {
    /** The model's data counters; already in bytes (the reader multiplies the kernel's octets/4 by 4). */
    private static final Set<String> PORT_DATA_COUNTERS = Set.of("port_rcv_data", "port_xmit_data");

    public PerfCounters {
        values = Collections.unmodifiableMap(new LinkedHashMap<>(values));
        byteCounters = Set.copyOf(byteCounters);
    }

    /** {@code perf -i IF}: the netdev's ethtool statistics, as mlnx_perf reads them. */
    public static PerfCounters ofNetdev(EthtoolStats stats) {
        Builder b = new Builder();
        b.addAll(stats.netdev(), stats.raw());
        return b.build();
    }

    /**
     * {@code perf -d DEV}: per port, {@code counters/}, then {@code hw_counters/}, then the
     * ethtool statistics of the port's netdev. On a multi-port device names carry a
     * {@code <port>/} prefix so that port 1 and port 2 stay apart.
     */
    public static PerfCounters ofDevice(IbDevice device) {
        Builder b = new Builder();
        boolean multiPort = device.ports().size() > 1;
        for (IbPort port : device.ports()) {
            String prefix = multiPort ? port.port() + "/" : "";
            b.addAll(prefix, "counters", port.counters());
            b.addAll(prefix, "hw_counters", port.hwCounters());
            EthtoolStats ethtool = port.ethtool();
            if (ethtool != null) {
                b.addAll(prefix, ethtool.netdev(), ethtool.raw());
            }
        }
        return b.build();
    }

    /** mlnx_perf's rule: a key with "bytes" and without "_to_" (not {@code rx_1024_to_1518_bytes_phy}). */
    static boolean isByteCounterName(String name) {
        return (name.contains("bytes") && !name.contains("_to_")) || PORT_DATA_COUNTERS.contains(name);
    }

    private static final class Builder {
        private final Map<String, Long> values = new LinkedHashMap<>();
        private final Set<String> bytes = new LinkedHashSet<>();

        void addAll(String source, Map<String, Long> counters) {
            addAll("", source, counters);
        }

        /** A name seen earlier from another source is kept apart as {@code <source>:<name>}. */
        void addAll(String prefix, String source, Map<String, Long> counters) {
            counters.forEach((name, value) -> {
                String key = prefix + name;
                if (values.containsKey(key)) {
                    key = prefix + source + ":" + name;
                }
                values.put(key, value);
                if (isByteCounterName(name)) {
                    bytes.add(key);
                }
            });
        }

        PerfCounters build() {
            return new PerfCounters(values, bytes);
        }
    }
}
