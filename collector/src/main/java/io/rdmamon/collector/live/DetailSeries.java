package io.rdmamon.collector.live;

import io.rdmamon.collector.store.PortRates;
import io.rdmamon.collector.store.RatePoint;
import io.rdmamon.protocol.model.IbPort;
import io.rdmamon.protocol.rates.CounterGroup;
import io.rdmamon.protocol.rates.CounterRate;

import java.util.ArrayList;
import java.util.List;
import java.util.function.ToDoubleFunction;

/**
 * The per-second series of a watched port's detail history, in protocol order. Values are floats:
 * 4 bytes a point is what keeps 64 ports × 65 series × 900 points at about 15 MB; a float's 24-bit
 * mantissa is ample for a chart. NaN = unknown (absent counter, first sample, reset).
 */
final class DetailSeries {
    /** A series: its protocol name and how to compute a point from two reads of a port. */
    record Series(String name, Computation computation) {
    }

    /** Everything a point may depend on. */
    record Reads(IbPort previous, IbPort current, long elapsedMillis, RatePoint headline) {
    }

    interface Computation extends ToDoubleFunction<Reads> {
    }

    static final List<Series> ALL = build();
    static final int HEADLINE_RX_BYTES = 0;
    static final int HEADLINE_TX_BYTES = 1;
    static final int HEADLINE_RX_PACKETS = 2;
    static final int HEADLINE_TX_PACKETS = 3;

    private DetailSeries() {
    }

    static List<String> names() {
        return ALL.stream().map(Series::name).toList();
    }

    static float[] point(IbPort previous, IbPort current, long elapsedMillis) {
        Reads reads = new Reads(previous, current, elapsedMillis, PortRates.headline(previous, current, elapsedMillis, 0));
        float[] point = new float[ALL.size()];
        for (int i = 0; i < point.length; i++) {
            point[i] = (float) ALL.get(i).computation().applyAsDouble(reads);
        }
        return point;
    }

    /** A point with only the headline rates known (seeded from the store's headline history). */
    static float[] headlineOnly(RatePoint headline) {
        float[] point = new float[ALL.size()];
        java.util.Arrays.fill(point, Float.NaN);
        point[HEADLINE_RX_BYTES] = orNaN(headline.rxBytesPerSecond());
        point[HEADLINE_TX_BYTES] = orNaN(headline.txBytesPerSecond());
        point[HEADLINE_RX_PACKETS] = orNaN(headline.rxPacketsPerSecond());
        point[HEADLINE_TX_PACKETS] = orNaN(headline.txPacketsPerSecond());
        return point;
    }

    private static List<Series> build() {
        List<Series> series = new ArrayList<>();
        series.add(new Series("rx_bytes", r -> orNaN(r.headline().rxBytesPerSecond())));
        series.add(new Series("tx_bytes", r -> orNaN(r.headline().txBytesPerSecond())));
        series.add(new Series("rx_packets", r -> orNaN(r.headline().rxPacketsPerSecond())));
        series.add(new Series("tx_packets", r -> orNaN(r.headline().txPacketsPerSecond())));
        // per-priority traffic and PFC, ethtool names as mlx5 prints them; pause_duration stays in the
        // driver's microseconds: per second it reads directly as "µs paused per s"
        for (String suffix : List.of("bytes", "pause", "pause_duration")) {
            for (String direction : List.of("rx", "tx")) {
                for (int prio = 0; prio < 8; prio++) {
                    String name = direction + "_prio" + prio + "_" + suffix;
                    series.add(new Series(name, counter(CounterGroup.ETHTOOL, name)));
                }
            }
        }
        for (String name : List.of("np_ecn_marked_roce_packets", "np_cnp_sent", "rp_cnp_handled", "rp_cnp_ignored",
                "out_of_sequence", "packet_seq_err", "local_ack_timeout_err", "rnr_nak_retry_err",
                "tx_bps_limit_drop_cnt", "rx_bps_limit_drop_cnt", "tx_pps_limit_drop_cnt", "rx_pps_limit_drop_cnt")) {
            series.add(new Series(name, hwCounter(name)));
        }
        series.add(new Series("state", r -> r.current().stateId() < 0 ? Double.NaN : r.current().stateId()));
        // 1 while the port carries traffic (IbPort.isActive), so the dashboard need not know which states do
        series.add(new Series("active", r -> r.current().stateId() < 0 ? Double.NaN : r.current().isActive() ? 1 : 0));
        return List.copyOf(series);
    }

    private static Computation counter(CounterGroup group, String name) {
        return r -> {
            CounterRate rate = PortRates.rate(r.previous(), r.current(), r.elapsedMillis(), group, name);
            return rate != null && rate.hasRate() ? rate.perSecond() : Double.NaN;
        };
    }

    // the out-of-tree eRDMA driver prefixes its statistics with hw_ (docs/reference/sysfs-and-counters.md §3)
    private static Computation hwCounter(String name) {
        Computation plain = counter(CounterGroup.HW_COUNTERS, name);
        Computation prefixed = counter(CounterGroup.HW_COUNTERS, "hw_" + name);
        return r -> r.current().hwCounters().containsKey(name) ? plain.applyAsDouble(r) : prefixed.applyAsDouble(r);
    }

    private static float orNaN(Double value) {
        return value == null ? Float.NaN : value.floatValue();
    }
}
