package io.rdmamon.collector.live;

import io.rdmamon.collector.store.PortRates;
import io.rdmamon.protocol.model.CounterUnits;
import io.rdmamon.protocol.model.IbPort;
import io.rdmamon.protocol.rates.CounterGroup;
import io.rdmamon.protocol.rates.CounterRate;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One counter that moved between two reads, in the spirit of {@code mlnx_perf}: its per-second delta,
 * and whether it counts bytes (so the dashboard can also show Mbps).
 *
 * @param group     where it comes from
 * @param name      file or statistic name
 * @param perSecond the rate (above zero)
 * @param bytes     true for byte counters ({@link CounterUnits#isByteCounter})
 */
record MovedCounter(CounterGroup group, String name, double perSecond, boolean bytes) {

    /** Every counter of {@code current} whose rate since {@code previous} is above zero, in read order. */
    static List<MovedCounter> between(IbPort previous, IbPort current, long elapsedMillis) {
        List<MovedCounter> moved = new ArrayList<>();
        if (previous == null) {
            return moved;
        }
        add(moved, CounterGroup.PORT_COUNTERS, current.counters(), previous, current, elapsedMillis);
        add(moved, CounterGroup.HW_COUNTERS, current.hwCounters(), previous, current, elapsedMillis);
        if (current.ethtool() != null) {
            add(moved, CounterGroup.ETHTOOL, current.ethtool().raw(), previous, current, elapsedMillis);
        }
        return moved;
    }

    private static void add(List<MovedCounter> moved, CounterGroup group, Map<String, Long> values, IbPort previous,
                            IbPort current, long elapsedMillis) {
        for (String name : values.keySet()) {
            CounterRate rate = PortRates.rate(previous, current, elapsedMillis, group, name);
            if (rate != null && rate.hasRate() && rate.perSecond() > 0) {
                moved.add(new MovedCounter(group, name, rate.perSecond(), CounterUnits.isByteCounter(group, name)));
            }
        }
    }
}
