package io.rdmamon.collector.store;

import io.rdmamon.protocol.model.IbPort;
import io.rdmamon.protocol.rates.CounterGroup;
import io.rdmamon.protocol.rates.CounterRate;
import io.rdmamon.protocol.rates.CounterWidth;

import java.util.List;
import java.util.Map;

/** Per-second rates of one port between two samples. */
public final class PortRates {
    // eRDMA has no counters/ (no PMA): its traffic is in hw_counters, with or without the hw_ prefix
    // of the out-of-tree driver (docs/reference/sysfs-and-counters.md §3).
    private static final List<Source> RX_BYTES = List.of(new Source(CounterGroup.PORT_COUNTERS, "port_rcv_data"),
            new Source(CounterGroup.HW_COUNTERS, "rx_bytes_cnt"), new Source(CounterGroup.HW_COUNTERS, "hw_rx_bytes_cnt"));
    private static final List<Source> TX_BYTES = List.of(new Source(CounterGroup.PORT_COUNTERS, "port_xmit_data"),
            new Source(CounterGroup.HW_COUNTERS, "tx_bytes_cnt"), new Source(CounterGroup.HW_COUNTERS, "hw_tx_bytes_cnt"));
    private static final List<Source> RX_PACKETS = List.of(new Source(CounterGroup.PORT_COUNTERS, "port_rcv_packets"),
            new Source(CounterGroup.HW_COUNTERS, "rx_packets_cnt"), new Source(CounterGroup.HW_COUNTERS, "hw_rx_packets_cnt"));
    private static final List<Source> TX_PACKETS = List.of(new Source(CounterGroup.PORT_COUNTERS, "port_xmit_packets"),
            new Source(CounterGroup.HW_COUNTERS, "tx_packets_cnt"), new Source(CounterGroup.HW_COUNTERS, "hw_tx_packets_cnt"));

    private record Source(CounterGroup group, String name) {
    }

    private PortRates() {
    }

    /** The rate of {@code name} in {@code group}; null when either sample lacks the counter. */
    public static CounterRate rate(IbPort previous, IbPort current, long elapsedMillis, CounterGroup group, String name) {
        if (previous == null) {
            return null;
        }
        Long before = values(previous, group).get(name);
        Long now = values(current, group).get(name);
        if (before == null || now == null) {
            return null;
        }
        return CounterRate.between(before, now, elapsedMillis, CounterWidth.of(group, name));
    }

    /** Headline rates of {@code current} at {@code timestampMillis}; rates are null without a usable previous read. */
    public static RatePoint headline(IbPort previous, IbPort current, long elapsedMillis, long timestampMillis) {
        return new RatePoint(timestampMillis, first(previous, current, elapsedMillis, RX_BYTES),
                first(previous, current, elapsedMillis, TX_BYTES), first(previous, current, elapsedMillis, RX_PACKETS),
                first(previous, current, elapsedMillis, TX_PACKETS));
    }

    private static Double first(IbPort previous, IbPort current, long elapsedMillis, List<Source> sources) {
        for (Source source : sources) {
            if (values(current, source.group()).containsKey(source.name())) {
                CounterRate rate = rate(previous, current, elapsedMillis, source.group(), source.name());
                return rate != null && rate.hasRate() ? rate.perSecond() : null;
            }
        }
        return null;
    }

    private static Map<String, Long> values(IbPort port, CounterGroup group) {
        return switch (group) {
            case PORT_COUNTERS -> port.counters();
            case HW_COUNTERS -> port.hwCounters();
            case ETHTOOL -> port.ethtool() == null ? Map.of() : port.ethtool().raw();
        };
    }
}
