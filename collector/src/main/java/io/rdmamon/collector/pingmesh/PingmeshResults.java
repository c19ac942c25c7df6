package io.rdmamon.collector.pingmesh;

import io.rdmamon.collector.model.PortKey;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the pingmesh measured, per ordered pair (client → server): the probes of the last {@code window} for the
 * matrix, the metrics and the verdicts, and the last {@value #HISTORY_POINTS} probes (of the last
 * {@value #HISTORY_WINDOWS} windows) for the dashboard's hover.
 *
 * <p>Loss is inferred from the round trips: a reliable-connected QP hides a lost packet behind its retransmission,
 * so an exchange whose round trip reached the retransmission timeout (4.096 µs × 2^qpTimeout) lost a packet, as
 * Pingmesh (SIGCOMM'15) inferred TCP loss from SYN retransmission times. A probe that failed after its server
 * listened never got through: all its iterations count as lost, whether perftest reported the failure or the probe
 * timed out (a timeout is kept apart, for {@link PingmeshVerdicts#confirmedLoss} to excuse where the counters show a
 * stalled host rather than a lossy path). A probe an agent refused (busy port, probes disabled,
 * an unknown device) or that could not start is skipped: not the network's fault, it counts nowhere but in its
 * history point and {@code rdmamon_collector_pingmesh_probes_total{outcome="skipped"}}.
 *
 * <p>Written on the collector's event loop, read by scrapes on workers: every method is synchronized.
 */
public final class PingmeshResults {
    public static final int HISTORY_POINTS = 30;
    /** A pair keeps history points of this many windows back; one not probed for that long is forgotten. */
    static final int HISTORY_WINDOWS = 5;
    private final long windowMillis;
    private final long lossRttNanos;
    private final Map<Pair, PairHistory> pairs = new LinkedHashMap<>();

    /** An ordered pair: {@code src} ran the client, {@code dst} the server. */
    public record Pair(PortKey src, PortKey dst) {
    }

    private static final class PairHistory {
        String srcGroup;
        String dstGroup;
        final ArrayDeque<ProbePoint> points = new ArrayDeque<>();
    }

    /**
     * @param window        the span the statistics cover
     * @param lossRttSeconds a round trip of at least this waited for a retransmission: lost
     */
    public PingmeshResults(Duration window, double lossRttSeconds) {
        this.windowMillis = window.toMillis();
        this.lossRttNanos = Math.round(lossRttSeconds * 1e9);
    }

    /**
     * A probe that ran: its measured round trips, in nanoseconds. The first is left out when there are others: it
     * carries the processes' first touch of their buffers and QPs (one lab run measured 1.3 s for it, then under
     * 50 ms), which is the host warming up, not the path.
     */
    public synchronized void completed(MeshPort src, MeshPort dst, long finishedMillis, List<Long> rttNanos) {
        int warmUp = rttNanos.size() > 1 ? 1 : 0;
        int[] sorted = new int[rttNanos.size() - warmUp];
        int lost = 0;
        for (int i = 0; i < sorted.length; i++) {
            long rtt = rttNanos.get(i + warmUp);
            sorted[i] = (int) Math.min(Integer.MAX_VALUE, rtt);
            if (rtt >= lossRttNanos) {
                lost++;
            }
        }
        Arrays.sort(sorted);
        add(src, dst, new ProbePoint(finishedMillis, sorted.length, lost, Quantiles.seconds(sorted, sorted.length, 0.5),
                Quantiles.seconds(sorted, sorted.length, 0.99), false, false, false, null, sorted));
    }

    /**
     * A probe whose client failed after its server listened: all {@code iterations} round trips lost; {@code timedOut}
     * when it outlived its timeout rather than perftest reporting the failure.
     */
    public synchronized void unreachable(MeshPort src, MeshPort dst, long finishedMillis, int iterations,
                                         boolean timedOut, String error) {
        add(src, dst, new ProbePoint(finishedMillis, iterations, iterations, Double.NaN, Double.NaN, true, timedOut,
                false, error, new int[0]));
    }

    /** A probe that did not run for a reason that is not the network. */
    public synchronized void skipped(MeshPort src, MeshPort dst, long millis, String reason) {
        add(src, dst, new ProbePoint(millis, 0, 0, Double.NaN, Double.NaN, false, false, true, reason, null));
    }

    private void add(MeshPort src, MeshPort dst, ProbePoint point) {
        PairHistory history = pairs.computeIfAbsent(new Pair(src.key(), dst.key()), p -> new PairHistory());
        history.srcGroup = src.group();
        history.dstGroup = dst.group();
        history.points.addLast(point);
        while (history.points.size() > HISTORY_POINTS) {
            history.points.removeFirst();
        }
    }

    /**
     * Drops the round trips of probes older than the window (the history keeps their summary) and the pairs not
     * probed for {@value #HISTORY_WINDOWS} windows; the service calls it every round.
     */
    public synchronized void expire(long nowMillis) {
        long windowStart = nowMillis - windowMillis;
        long historyStart = nowMillis - HISTORY_WINDOWS * windowMillis;
        for (Iterator<PairHistory> it = pairs.values().iterator(); it.hasNext(); ) {
            PairHistory history = it.next();
            while (!history.points.isEmpty() && history.points.peekFirst().timestampMillis() < historyStart) {
                history.points.removeFirst();
            }
            if (history.points.isEmpty()) {
                it.remove();
                continue;
            }
            List<ProbePoint> kept = new ArrayList<>(history.points.size());
            for (ProbePoint point : history.points) {
                kept.add(point.timestampMillis() < windowStart ? point.withoutRoundTrips() : point);
            }
            history.points.clear();
            history.points.addAll(kept);
        }
    }

    /** Every pair with a probe that ran (not skipped) in the window ending at {@code nowMillis}. */
    public synchronized List<PairStats> pairStats(long nowMillis) {
        List<PairStats> result = new ArrayList<>();
        long windowStart = nowMillis - windowMillis;
        pairs.forEach((pair, history) -> {
            RoundTrips trips = new RoundTrips();
            int probes = 0;
            int failed = 0;
            int timedOut = 0;
            long timedOutRoundTrips = 0;
            for (ProbePoint point : history.points) {
                if (point.timestampMillis() < windowStart || point.timestampMillis() > nowMillis || point.skipped()) {
                    continue;
                }
                probes++;
                failed += point.failed() ? 1 : 0;
                if (point.timedOut()) {
                    timedOut++;
                    timedOutRoundTrips += point.lost();
                }
                trips.add(point);
            }
            if (probes > 0) {
                result.add(new PairStats(pair.src(), pair.dst(), history.srcGroup, history.dstGroup, trips.sent,
                        trips.lost, trips.quantileSeconds(0.5), trips.quantileSeconds(0.99), probes, failed, timedOut,
                        timedOutRoundTrips));
            }
        });
        return result;
    }

    /** The newest probe (run or skipped) of each pair in the window, by pair: for the matrix's cell age. */
    public synchronized Map<Pair, Long> lastProbeMillis(long nowMillis) {
        Map<Pair, Long> result = new HashMap<>();
        long windowStart = nowMillis - windowMillis;
        pairs.forEach((pair, history) -> {
            for (Iterator<ProbePoint> it = history.points.descendingIterator(); it.hasNext(); ) {
                ProbePoint point = it.next();
                if (!point.skipped() && point.timestampMillis() >= windowStart && point.timestampMillis() <= nowMillis) {
                    result.put(pair, point.timestampMillis());
                    return;
                }
            }
        });
        return result;
    }

    /** The pair's history, oldest first (skipped probes included); empty when it was not probed lately. */
    public synchronized List<ProbePoint> history(Pair pair) {
        PairHistory history = pairs.get(pair);
        return history == null ? List.of() : List.copyOf(history.points);
    }

    /**
     * The window's round trips aggregated for the metrics: per port and scope (the probes it took part in, at either
     * end, towards its own group or the rest), and per ordered group pair.
     */
    public synchronized Aggregates aggregates(long nowMillis) {
        Map<PortScope, RoundTrips> ports = new HashMap<>();
        Map<GroupPair, RoundTrips> groups = new HashMap<>();
        long windowStart = nowMillis - windowMillis;
        pairs.forEach((pair, history) -> {
            boolean own = history.srcGroup.equals(history.dstGroup);
            for (ProbePoint point : history.points) {
                if (point.skipped() || point.timestampMillis() < windowStart || point.timestampMillis() > nowMillis) {
                    continue;
                }
                ports.computeIfAbsent(new PortScope(pair.src(), own), k -> new RoundTrips()).add(point);
                ports.computeIfAbsent(new PortScope(pair.dst(), own), k -> new RoundTrips()).add(point);
                groups.computeIfAbsent(new GroupPair(history.srcGroup, history.dstGroup), k -> new RoundTrips()).add(point);
            }
        });
        return new Aggregates(ports, groups);
    }

    /** A port's probes towards its own group ({@code ownGroup}) or the rest. */
    public record PortScope(PortKey port, boolean ownGroup) {
        /** The {@code scope} label: {@code group} or {@code rest}. */
        public String scope() {
            return ownGroup ? "group" : "rest";
        }
    }

    public record GroupPair(String srcGroup, String dstGroup) {
    }

    /** Summaries of merged round trips, ready to export. */
    public record Summary(long sent, long lost, double p50Seconds, double p99Seconds) {
        static Summary of(RoundTrips trips) {
            return new Summary(trips.sent, trips.lost, trips.quantileSeconds(0.5), trips.quantileSeconds(0.99));
        }

        /** Lost over sent; NaN when nothing was sent. */
        public double lossRatio() {
            return sent == 0 ? Double.NaN : (double) lost / sent;
        }
    }

    /** What {@link #aggregates} returns. */
    public static final class Aggregates {
        private final Map<PortScope, Summary> ports = new HashMap<>();
        private final Map<GroupPair, Summary> groups = new HashMap<>();

        Aggregates(Map<PortScope, RoundTrips> ports, Map<GroupPair, RoundTrips> groups) {
            ports.forEach((k, v) -> this.ports.put(k, Summary.of(v)));
            groups.forEach((k, v) -> this.groups.put(k, Summary.of(v)));
        }

        public Map<PortScope, Summary> ports() {
            return ports;
        }

        public Map<GroupPair, Summary> groups() {
            return groups;
        }
    }
}
