package io.rdmamon.cli.node;

import io.rdmamon.protocol.model.CounterUnits;
import io.rdmamon.protocol.model.EthtoolStats;
import io.rdmamon.protocol.model.IbDevice;
import io.rdmamon.protocol.model.IbPort;
import io.rdmamon.protocol.rates.CounterGroup;
import io.rdmamon.protocol.rates.CounterWidth;

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
 * @param byteCounters names of the counters that count bytes ({@link CounterUnits#isByteCounter})
 * @param widths       width and wrap behaviour of each counter, for its per-second rate
 */
public record PerfCounters(Map<String, Long> values, Set<String> byteCounters, Map<String, CounterWidth> widths) {
    public PerfCounters {
        values = Collections.unmodifiableMap(new LinkedHashMap<>(values));
        byteCounters = Set.copyOf(byteCounters);
        widths = Map.copyOf(widths);
    }

    /** Per-second rates of every counter present in both reads, in the order of this (the later) read. */
    public Map<String, Double> ratesSince(PerfCounters previous, double seconds) {
        Map<String, Double> rates = new LinkedHashMap<>();
        values.forEach((name, value) -> {
            Double rate = CounterDeltas.perSecond(previous.values.get(name), value, seconds,
                    widths.getOrDefault(name, CounterWidth.WRAPPING_64));
            if (rate != null) {
                rates.put(name, rate);
            }
        });
        return rates;
    }

    /** {@code perf -i IF}: the netdev's ethtool statistics, as mlnx_perf reads them. */
    public static PerfCounters ofNetdev(EthtoolStats stats) {
        Builder b = new Builder();
        b.addAll("", stats.netdev(), CounterGroup.ETHTOOL, stats.raw());
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
            b.addAll(prefix, "counters", CounterGroup.PORT_COUNTERS, port.counters());
            b.addAll(prefix, "hw_counters", CounterGroup.HW_COUNTERS, port.hwCounters());
            EthtoolStats ethtool = port.ethtool();
            if (ethtool != null) {
                b.addAll(prefix, ethtool.netdev(), CounterGroup.ETHTOOL, ethtool.raw());
            }
        }
        return b.build();
    }

    private static final class Builder {
        private final Map<String, Long> values = new LinkedHashMap<>();
        private final Set<String> bytes = new LinkedHashSet<>();
        private final Map<String, CounterWidth> widths = new LinkedHashMap<>();

        /** A name seen earlier from another source is kept apart as {@code <source>:<name>}. */
        void addAll(String prefix, String source, CounterGroup group, Map<String, Long> counters) {
            counters.forEach((name, value) -> {
                String key = prefix + name;
                if (values.containsKey(key)) {
                    key = prefix + source + ":" + name;
                }
                values.put(key, value);
                widths.put(key, CounterWidth.of(group, name));
                if (CounterUnits.isByteCounter(group, name)) {
                    bytes.add(key);
                }
            });
        }

        PerfCounters build() {
            return new PerfCounters(values, bytes, widths);
        }
    }
}
