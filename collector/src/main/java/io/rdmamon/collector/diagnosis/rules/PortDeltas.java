package io.rdmamon.collector.diagnosis.rules;

import io.rdmamon.collector.diagnosis.DiagnosisConfig;
import io.rdmamon.collector.diagnosis.PortInput;
import io.rdmamon.collector.store.PortRates;
import io.rdmamon.protocol.model.LosslessPriorities;
import io.rdmamon.protocol.model.IbPort;
import io.rdmamon.protocol.model.PortTransport;
import io.rdmamon.protocol.model.PriorityCounters;
import io.rdmamon.protocol.rates.CounterGroup;
import io.rdmamon.protocol.rates.CounterRate;
import io.rdmamon.protocol.rates.CounterWidth;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedSet;
import java.util.StringJoiner;
import java.util.function.Function;

/**
 * The arithmetic the port rules share: per-second rates of one port between its two samples, and the facts
 * several rules read (RoCE or not, the lossless priorities). Every delta goes through {@link CounterRate} with the
 * counter's {@link CounterWidth}: wraps, resets and saturated counters give no rate, returned as NaN, and every
 * comparison a rule makes with NaN is false, so no rate is never a finding. Without a previous sample every rate
 * is NaN too.
 */
final class PortDeltas {
    // ethtool rx/tx_prioN_* statistics are 64-bit in mlx5e (only the qcnt group is 32-bit)
    private static final CounterWidth PRIO_WIDTH = CounterWidth.of(CounterGroup.ETHTOOL, "tx_prio0_bytes");

    /** Positive rates of a list of counters: their sum, "name N/s" for the evidence, and each by name. */
    record Sum(double total, String parts, Map<String, Double> byName) {
        /** The finding's values: each rate by name, and the sum as {@code totalKey}. */
        Map<String, Double> values(String totalKey) {
            Map<String, Double> values = new LinkedHashMap<>(byName);
            values.put(totalKey, total);
            return values;
        }
    }

    private PortDeltas() {
    }

    /** A RoCE port by the one rule of {@link PortTransport} (eRDMA counts only in its RoCE v2 mode). */
    static boolean isRoce(PortInput in) {
        return in.portQos().transport() == PortTransport.ROCE;
    }

    /**
     * The lossless priorities set in the diagnosis config, else the port's PFC configuration when it was read, else
     * those the port has pause counters for (learned, {@link LosslessPriorities}).
     */
    static SortedSet<Integer> losslessPriorities(PortInput in, DiagnosisConfig config) {
        return losslessPriorities(in.current(), config);
    }

    /** The lossless priorities of {@code port}, as {@link #losslessPriorities(PortInput, DiagnosisConfig)}. */
    static SortedSet<Integer> losslessPriorities(IbPort port, DiagnosisConfig config) {
        return config.losslessPriorities().isEmpty() ? LosslessPriorities.of(port).priorities()
                : config.losslessPriorities();
    }

    /** Both samples carry ethtool statistics (a RoCE port of a NIC with per-priority counters). */
    static boolean hasEthtoolPair(PortInput in) {
        return in.previous() != null && in.current().ethtool() != null && in.previous().ethtool() != null;
    }

    /** The rate of {@code name} in {@code group}; NaN without one. */
    static double rate(PortInput in, CounterGroup group, String name) {
        return rate(in.previous(), in.current(), in.elapsedMillis(), group, name);
    }

    /** The rate of {@code name} in {@code group} between two reads of a port; NaN without one. */
    static double rate(IbPort previous, IbPort current, long elapsedMillis, CounterGroup group, String name) {
        CounterRate rate = PortRates.rate(previous, current, elapsedMillis, group, name);
        return rate != null && rate.hasRate() ? rate.perSecond() : Double.NaN;
    }

    /** The rate of an hw_counters counter; NaN without one. */
    static double hw(PortInput in, String name) {
        return rate(in, CounterGroup.HW_COUNTERS, name);
    }

    /** The rate of a counter read outside the name-keyed groups (a field of a typed record); NaN without one. */
    static double rate(Long before, Long now, long elapsedMillis, CounterWidth width) {
        if (before == null || now == null) {
            return Double.NaN;
        }
        CounterRate rate = CounterRate.between(before, now, elapsedMillis, width);
        return rate.hasRate() ? rate.perSecond() : Double.NaN;
    }

    /** RDMA bytes per second: the PMA data counter, else the vport RDMA counter (mlx5 computes one from the other). */
    static double rdmaBytes(PortInput in, String pmaName, String vportName) {
        double pma = rate(in, CounterGroup.PORT_COUNTERS, pmaName);
        return Double.isNaN(pma) ? rate(in, CounterGroup.ETHTOOL, vportName) : pma;
    }

    /**
     * Per-priority rates (index = priority 0..7) of one {@link PriorityCounters} field, NaN where absent or without
     * a rate. Needs {@link #hasEthtoolPair}.
     */
    static double[] priorityRates(PortInput in, Function<PriorityCounters, Long> field) {
        double[] rates = {Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN};
        List<PriorityCounters> before = in.previous().ethtool().priorities();
        for (PriorityCounters now : in.current().ethtool().priorities()) {
            int p = now.priority();
            if (p < 0 || p > 7) {
                continue;
            }
            for (PriorityCounters old : before) {
                if (old.priority() == p) {
                    rates[p] = rate(field.apply(old), field.apply(now), in.elapsedMillis(), PRIO_WIDTH);
                    break;
                }
            }
        }
        return rates;
    }

    /** The hw_counters of {@code names} that moved, summed; values are keyed {@code <name>PerSecond}. */
    static Sum hwSum(PortInput in, List<String> names) {
        double total = 0;
        StringJoiner parts = new StringJoiner(", ");
        Map<String, Double> values = new LinkedHashMap<>();
        for (String name : names) {
            double perSecond = hw(in, name);
            if (perSecond > 0) {
                total += perSecond;
                parts.add(name + " " + Evidence.perSecond(perSecond));
                values.put(name + "PerSecond", perSecond);
            }
        }
        return new Sum(total, parts.toString(), values);
    }

    static double orZero(double value) {
        return Double.isNaN(value) ? 0 : value;
    }
}
