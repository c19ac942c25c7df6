package io.rdmamon.collector.diagnosis;

import io.rdmamon.collector.store.PortRates;
import io.rdmamon.protocol.model.EthtoolStats;
import io.rdmamon.protocol.model.GidAdvice;
import io.rdmamon.protocol.model.GidEntry;
import io.rdmamon.protocol.model.IbPort;
import io.rdmamon.protocol.model.PortTransport;
import io.rdmamon.protocol.model.PriorityCounters;
import io.rdmamon.protocol.rates.CounterGroup;
import io.rdmamon.protocol.rates.CounterRate;
import io.rdmamon.protocol.rates.CounterWidth;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.SortedSet;
import java.util.StringJoiner;
import java.util.function.Function;

/**
 * The per-port rules of DESIGN.md §6 as pure functions of two consecutive samples of one port: which
 * conditions hold now, with their evidence. No state, no clock; {@link DiagnosisEngine} adds hysteresis.
 * Every delta goes through {@link CounterRate} (wraps, resets and saturated counters give no rate, and
 * no rate never counts as a finding). Text is only built for conditions that hold, so a healthy port costs
 * a few dozen rate computations and no allocation beyond them.
 */
public final class PortEvaluator {
    private static final double MICROS_PER_SECOND = 1_000_000.0;
    // ethtool rx/tx_prioN_* statistics are 64-bit in mlx5e (only the qcnt group is 32-bit)
    private static final CounterWidth PRIO_WIDTH = CounterWidth.of(CounterGroup.ETHTOOL, "tx_prio0_bytes");
    private static final CounterWidth STORM_WIDTH = CounterWidth.of(CounterGroup.ETHTOOL, "tx_pause_storm_error_events");
    private static final List<String> TRANSPORT_ERRORS = List.of("out_of_sequence", "packet_seq_err", "local_ack_timeout_err");
    // upstream erdma names, then those of the first out-of-tree patch (hw_ prefix, tx implied); see rdmamon-recording.yml
    private static final List<String> ERDMA_DROPS = List.of("tx_bps_limit_drop_cnt", "tx_pps_limit_drop_cnt",
            "rx_bps_limit_drop_cnt", "rx_pps_limit_drop_cnt", "hw_bps_limit_drop_cnt", "hw_pps_limit_drop_cnt",
            "hw_rx_bps_limit_drop_cnt", "hw_rx_pps_limit_drop_cnt");

    private final DiagnosisConfig config;

    public PortEvaluator(DiagnosisConfig config) {
        this.config = config;
    }

    /** The findings of every rule whose condition holds on {@code in}. Rate rules need {@link PortInput#hasRates()}. */
    public List<Finding> evaluate(PortInput in) {
        List<Finding> found = new ArrayList<>(2);
        IbPort port = in.current();
        boolean active = port.isActive();
        if (port.stateId() >= 0 && !active) {
            found.add(new Finding(Rule.LINK_DOWN, "state " + port.stateId() + ": " + port.state()
                    + (port.physState() == null ? "" : ", phys_state " + port.physStateId() + ": " + port.physState()),
                    Map.of("stateId", (double) port.stateId(), "physStateId", (double) port.physStateId())));
        }
        boolean roce = isRoce(in);
        if (roce && active) {
            gidNoRocev2(port, found);
        }
        linkDegraded(in, active, found); // flaps come counted in the input; the rate needs no previous sample
        if (in.hasRates()) {
            if (roce) {
                SortedSet<Integer> lossless = config.losslessPriorities().isEmpty() && port.ethtool() != null
                        ? port.ethtool().pfcEnabledPriorities() : config.losslessPriorities();
                priorities(in, lossless, found);
                pauseStorm(in, found);
                ecnNotEngaged(in, found);
            }
            cnpIgnored(in, found);
            transportLoss(in, roce, found);
            erdmaRateLimited(in, found);
        }
        return found;
    }

    /** A RoCE port by the one rule of {@link PortTransport} (eRDMA counts only in its RoCE v2 mode). */
    static boolean isRoce(PortInput in) {
        return PortTransport.of(in.device(), in.current()) == PortTransport.ROCE;
    }

    /** link_downed + link_error_recovery increases between two samples (0 without a usable rate). */
    public static long flaps(IbPort previous, IbPort current, long elapsedMillis) {
        if (previous == null || elapsedMillis <= 0) {
            return 0;
        }
        double seconds = elapsedMillis / 1000.0;
        double perSecond = orZero(rate(previous, current, elapsedMillis, CounterGroup.PORT_COUNTERS, "link_downed"))
                + orZero(rate(previous, current, elapsedMillis, CounterGroup.PORT_COUNTERS, "link_error_recovery"));
        return Math.round(perSecond * seconds);
    }

    private void linkDegraded(PortInput in, boolean active, List<Finding> found) {
        IbPort port = in.current();
        PortInput.ExpectedRate expected = in.expectedRate();
        boolean slow = active && expected != null && port.rateBytesPerSecond() != null
                && port.rateBytesPerSecond() < expected.bytesPerSecond();
        boolean flapping = in.recentFlaps() > 0;
        if (!slow && !flapping) {
            return;
        }
        StringJoiner text = new StringJoiner("; ");
        Map<String, Double> values = new LinkedHashMap<>();
        if (slow) {
            text.add("runs at " + port.rate() + ", expected " + gbps(expected.bytesPerSecond()) + " (" + expected.origin() + ")");
            values.put("rateBytesPerSecond", port.rateBytesPerSecond().doubleValue());
            values.put("expectedRateBytesPerSecond", (double) expected.bytesPerSecond());
        }
        if (flapping) {
            text.add(in.recentFlaps() + " link down / retrain event(s) (link_downed, link_error_recovery) in the last "
                    + config.flapWindow().toSeconds() + " s");
            values.put("recentFlaps", (double) in.recentFlaps());
        }
        found.add(new Finding(Rule.LINK_DEGRADED, text.toString(), values));
    }

    private void gidNoRocev2(IbPort port, List<Finding> found) {
        Integer index = config.expectedGidIndex();
        if (index != null) {
            GidEntry entry = port.gids().stream().filter(g -> g.index() == index).findFirst().orElse(null);
            if (entry == null || !entry.isRoceV2()) {
                found.add(new Finding(Rule.GID_NO_ROCEV2, "the configured GID index " + index + " is "
                        + (entry == null ? "empty" : entry.type() + " (" + entry.gid() + "), not RoCE v2"),
                        Map.of("expectedGidIndex", (double) index)));
                return;
            }
        }
        if (GidAdvice.hasRoutableRoceV2(port)) {
            return;
        }
        StringJoiner listed = new StringJoiner(", ");
        port.gids().stream().limit(4).forEach(g -> listed.add(g.index() + " " + g.type() + " " + g.gid()));
        found.add(new Finding(Rule.GID_NO_ROCEV2, "no RoCE v2 GID with an IP address among " + port.gids().size()
                + " GID(s)" + (port.gids().isEmpty() ? "" : ": " + listed + (port.gids().size() > 4 ? ", …" : ""))
                + (port.netdev() == null ? "" : "; is an IPv4 address configured on " + port.netdev() + "?"),
                Map.of("gidCount", (double) port.gids().size())));
    }

    private void priorities(PortInput in, SortedSet<Integer> lossless, List<Finding> found) {
        EthtoolStats now = in.current().ethtool();
        EthtoolStats before = in.previous().ethtool();
        if (now == null || before == null || now.priorities().isEmpty()) {
            return;
        }
        double txRdma = rdmaBytes(in, "port_xmit_data", "tx_vport_rdma_unicast_bytes");
        double rxRdma = rdmaBytes(in, "port_rcv_data", "rx_vport_rdma_unicast_bytes");
        double busiest = Math.max(orZero(txRdma), orZero(rxRdma));
        if (!(busiest >= config.minRdmaBytesPerSecond())) {
            return;
        }
        if (now.pfcEnabledPriorities().isEmpty()) {
            boolean tx = orZero(txRdma) >= orZero(rxRdma);
            found.add(new Finding(Rule.PFC_NOT_ENABLED, bytesPerSecond(busiest) + " of RDMA " + (tx ? "tx" : "rx")
                    + " traffic and no priority has PFC enabled on " + now.netdev() + " (no rx_prioN_pause counters)",
                    Map.of("rdmaBytesPerSecond", busiest)));
            return;
        }
        if (lossless.isEmpty()) {
            return;
        }
        double[] tx = prioRate(in, PriorityCounters::txBytes);
        double[] rx = prioRate(in, PriorityCounters::rxBytes);
        Finding txFinding = outsideLossless("tx", txRdma, tx, lossless, now);
        Finding rxFinding = outsideLossless("rx", rxRdma, rx, lossless, now);
        Finding worse = txFinding == null ? rxFinding : rxFinding == null ? txFinding
                : rxFinding.values().get("losslessShare") < txFinding.values().get("losslessShare") ? rxFinding : txFinding;
        if (worse != null) {
            found.add(worse);
        }
    }

    private Finding outsideLossless(String direction, double rdma, double[] byPriority, SortedSet<Integer> lossless,
                                    EthtoolStats ethtool) {
        if (!(rdma >= config.minRdmaBytesPerSecond())) {
            return null;
        }
        double onLossless = 0;
        int top = -1;
        for (int p = 0; p < 8; p++) {
            if (lossless.contains(p)) {
                onLossless += orZero(byPriority[p]);
            } else if (byPriority[p] > 0 && (top < 0 || byPriority[p] > byPriority[top])) {
                top = p;
            }
        }
        double share = Math.min(1, onLossless / rdma);
        if (share >= config.minLosslessShare()) {
            return null;
        }
        String where = lossless.equals(ethtool.pfcEnabledPriorities())
                ? "PFC enabled on priority " + list(lossless) + " only"
                : "lossless priority " + list(lossless) + " configured, PFC enabled on "
                + (ethtool.pfcEnabledPriorities().isEmpty() ? "none" : list(ethtool.pfcEnabledPriorities()));
        Map<String, Double> values = new LinkedHashMap<>();
        values.put("rdmaBytesPerSecond", rdma);
        values.put("losslessShare", share);
        String text;
        if (top >= 0) {
            double topShare = Math.min(1, byPriority[top] / rdma);
            values.put("priority", (double) top);
            values.put("priorityShare", topShare);
            text = percent(topShare) + " of RDMA " + direction + " bytes (" + bytesPerSecond(rdma) + ") on priority "
                    + top + ", which has no PFC; " + where + " (" + percent(share) + " there)";
        } else {
            text = "only " + percent(share) + " of RDMA " + direction + " bytes (" + bytesPerSecond(rdma)
                    + ") on the lossless priorities; " + where;
        }
        return new Finding(Rule.ROCE_TRAFFIC_OUTSIDE_LOSSLESS_PRIORITY, text, values);
    }

    private void pauseStorm(PortInput in, List<Finding> found) {
        EthtoolStats now = in.current().ethtool();
        EthtoolStats before = in.previous().ethtool();
        if (now == null || before == null) {
            return;
        }
        double[] rx = prioRate(in, PriorityCounters::rxPauseDurationMicros);
        double[] tx = prioRate(in, PriorityCounters::txPauseDurationMicros);
        int priority = -1;
        String direction = null;
        double ratio = 0;
        for (int p = 0; p < 8; p++) {
            if (tx[p] / MICROS_PER_SECOND > ratio) {
                ratio = tx[p] / MICROS_PER_SECOND;
                priority = p;
                direction = "tx";
            }
            if (rx[p] / MICROS_PER_SECOND > ratio) {
                ratio = rx[p] / MICROS_PER_SECOND;
                priority = p;
                direction = "rx";
            }
        }
        double warnings = rate(before.pauseStormWarningEvents(), now.pauseStormWarningEvents(), in.elapsedMillis(), STORM_WIDTH);
        double errors = rate(before.pauseStormErrorEvents(), now.pauseStormErrorEvents(), in.elapsedMillis(), STORM_WIDTH);
        boolean saturated = ratio >= config.pauseStormRatio();
        if (!saturated && !(warnings > 0) && !(errors > 0)) {
            return;
        }
        Map<String, Double> values = new LinkedHashMap<>();
        values.put("pausedRatio", Math.min(1, ratio));
        if (priority >= 0) {
            values.put("priority", (double) priority);
        }
        values.put("stormWarningEventsPerSecond", orZero(warnings));
        values.put("stormErrorEventsPerSecond", orZero(errors));
        String text = (priority >= 0 ? "priority " + priority + " paused " + percent(Math.min(1, ratio))
                + " of the time (" + direction + " pause duration " + String.format(Locale.ROOT, "%.3f", ratio) + " s/s)"
                : "no pause time counted")
                + "; pause-storm warning events " + perSecond(orZero(warnings)) + ", error events " + perSecond(orZero(errors));
        found.add(new Finding(Rule.PFC_PAUSE_STORM, text, values));
    }

    private void ecnNotEngaged(PortInput in, List<Finding> found) {
        if (in.current().ethtool() == null || in.previous().ethtool() == null) {
            return;
        }
        double[] rxPauses = prioRate(in, PriorityCounters::rxPauseFrames);
        double pauses = 0;
        int top = -1;
        for (int p = 0; p < 8; p++) {
            if (rxPauses[p] > 0) {
                pauses += rxPauses[p];
                if (top < 0 || rxPauses[p] > rxPauses[top]) {
                    top = p;
                }
            }
        }
        if (!(pauses >= config.ecnMinPauseFramesPerSecond())) {
            return;
        }
        double handled = hw(in, "rp_cnp_handled");
        if (Double.isNaN(handled) || handled > 0 || hw(in, "np_ecn_marked_roce_packets") > 0
                || hw(in, "np_cnp_sent") > 0 || hw(in, "rp_cnp_ignored") > 0) {
            return; // no congestion counters to judge by, ECN working, or CNPs arriving and ignored (cnp_ignored)
        }
        found.add(new Finding(Rule.ECN_NOT_ENGAGED, "receives " + perSecond(pauses) + " PFC pause frames (most on priority "
                + top + ") while ECN-marked packets, CNPs sent and CNPs handled stay at 0",
                Map.of("rxPauseFramesPerSecond", pauses, "priority", (double) top)));
    }

    private void cnpIgnored(PortInput in, List<Finding> found) {
        double ignored = hw(in, "rp_cnp_ignored");
        if (ignored > config.cnpIgnoredPerSecond()) {
            found.add(new Finding(Rule.CNP_IGNORED, "rp_cnp_ignored " + perSecond(ignored)
                    + ": CNPs arrive but the reaction point does not slow down", Map.of("cnpIgnoredPerSecond", ignored)));
        }
    }

    private void transportLoss(PortInput in, boolean roce, List<Finding> found) {
        boolean lossless = "InfiniBand".equals(in.current().linkLayer()) || roce && (!config.losslessPriorities().isEmpty()
                || in.current().ethtool() != null && !in.current().ethtool().pfcEnabledPriorities().isEmpty());
        if (!lossless) {
            return;
        }
        double total = 0;
        StringJoiner parts = new StringJoiner(", ");
        Map<String, Double> values = new LinkedHashMap<>();
        for (String name : TRANSPORT_ERRORS) {
            double perSecond = hw(in, name);
            if (perSecond > 0) {
                total += perSecond;
                parts.add(name + " " + perSecond(perSecond));
                values.put(name + "PerSecond", perSecond);
            }
        }
        if (total > config.transportErrorsPerSecond()) {
            values.put("transportErrorsPerSecond", total);
            found.add(new Finding(Rule.TRANSPORT_LOSS, perSecond(total) + " transport errors (" + parts
                    + ") on a port that should be lossless", values));
        }
    }

    private void erdmaRateLimited(PortInput in, List<Finding> found) {
        double total = 0;
        StringJoiner parts = new StringJoiner(", ");
        Map<String, Double> values = new LinkedHashMap<>();
        for (String name : ERDMA_DROPS) {
            double perSecond = hw(in, name);
            if (perSecond > 0) {
                total += perSecond;
                parts.add(name + " " + perSecond(perSecond));
                values.put(name + "PerSecond", perSecond);
            }
        }
        if (total > config.erdmaDropsPerSecond()) {
            values.put("dropsPerSecond", total);
            found.add(new Finding(Rule.ERDMA_RATE_LIMITED, perSecond(total) + " packets dropped at the instance limit ("
                    + parts + ")", values));
        }
    }

    /** RDMA bytes per second: the PMA data counter, else the vport RDMA counter (mlx5 computes one from the other). */
    private static double rdmaBytes(PortInput in, String pmaName, String vportName) {
        double pma = rate(in.previous(), in.current(), in.elapsedMillis(), CounterGroup.PORT_COUNTERS, pmaName);
        return Double.isNaN(pma) ? rate(in.previous(), in.current(), in.elapsedMillis(), CounterGroup.ETHTOOL, vportName) : pma;
    }

    /** Per-priority rates of one {@link PriorityCounters} field, NaN where absent or without a rate. */
    private static double[] prioRate(PortInput in, Function<PriorityCounters, Long> field) {
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

    private static double hw(PortInput in, String name) {
        return rate(in.previous(), in.current(), in.elapsedMillis(), CounterGroup.HW_COUNTERS, name);
    }

    private static double rate(IbPort previous, IbPort current, long elapsedMillis, CounterGroup group, String name) {
        CounterRate rate = PortRates.rate(previous, current, elapsedMillis, group, name);
        return rate != null && rate.hasRate() ? rate.perSecond() : Double.NaN;
    }

    private static double rate(Long before, Long now, long elapsedMillis, CounterWidth width) {
        if (before == null || now == null) {
            return Double.NaN;
        }
        CounterRate rate = CounterRate.between(before, now, elapsedMillis, width);
        return rate.hasRate() ? rate.perSecond() : Double.NaN;
    }

    private static double orZero(double value) {
        return Double.isNaN(value) ? 0 : value;
    }

    private static String list(Set<Integer> priorities) {
        StringJoiner joiner = new StringJoiner(", ");
        priorities.forEach(p -> joiner.add(Integer.toString(p)));
        return joiner.toString();
    }

    static String percent(double share) {
        return String.format(Locale.ROOT, share < 0.1 && share > 0 ? "%.1f%%" : "%.0f%%", share * 100);
    }

    static String perSecond(double value) {
        return String.format(Locale.ROOT, value >= 100 ? "%,.0f/s" : "%.1f/s", value);
    }

    static String bytesPerSecond(double value) {
        String[] units = {"B/s", "kB/s", "MB/s", "GB/s", "TB/s"};
        int i = 0;
        while (value >= 1000 && i < units.length - 1) {
            value /= 1000;
            i++;
        }
        return String.format(Locale.ROOT, "%.1f %s", value, units[i]);
    }

    private static String gbps(long bytesPerSecond) {
        double gbps = bytesPerSecond / 125_000_000.0;
        return (gbps == Math.rint(gbps) ? String.format(Locale.ROOT, "%.0f", gbps) : String.format(Locale.ROOT, "%.1f", gbps))
                + " Gb/s";
    }
}
