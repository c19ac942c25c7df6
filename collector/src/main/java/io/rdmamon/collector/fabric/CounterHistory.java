package io.rdmamon.collector.fabric;

import io.rdmamon.protocol.fabric.FabricNode;
import io.rdmamon.protocol.fabric.FabricPort;
import io.rdmamon.protocol.fabric.FabricSweep;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The last {@link #POINTS} sweeps' values of the {@link #COUNTERS} of every port of one fabric, for a link's counters
 * over time ({@code GET /api/fabric/link}). Bounded: a port costs {@code POINTS × COUNTERS} longs (768 bytes), so a
 * 40,000-port fabric about 31 MB; a port absent from {@code POINTS} sweeps in a row is forgotten. Not thread-safe: the
 * store guards it.
 */
final class CounterHistory {
    /** 3 minutes at the sweeper's default 15 s counter cadence. */
    static final int POINTS = 12;
    /** The counters kept over time: the cable errors, the drops, the congestion, the traffic. */
    static final List<String> COUNTERS = List.of("SymbolErrorCounter", "LinkErrorRecoveryCounter",
            "LinkDownedCounter", "PortRcvErrors", "PortXmitDiscards", "PortXmitWait", "PortXmitData", "PortRcvData");
    /** A counter the port did not report in that sweep (a real value of 2^63 is not expected of any PMA counter). */
    private static final long ABSENT = Long.MIN_VALUE;

    private final long[] times = new long[POINTS];
    private final Map<String, long[]> ports = new HashMap<>();
    private int head = -1;
    private int count;

    /** Records the counters of every port of {@code sweep}, stamped {@code millis}. */
    void record(FabricSweep sweep, long millis) {
        head = (head + 1) % POINTS;
        count = Math.min(POINTS, count + 1);
        times[head] = millis;
        Set<String> seen = new HashSet<>();
        for (FabricNode node : sweep.nodes()) {
            for (FabricPort port : node.ports()) {
                String key = node.guid() + "/" + port.number();
                seen.add(key);
                long[] values = ports.computeIfAbsent(key, k -> absent());
                for (int c = 0; c < COUNTERS.size(); c++) {
                    Long value = port.counters().get(COUNTERS.get(c));
                    values[head * COUNTERS.size() + c] = value == null ? ABSENT : value;
                }
            }
        }
        ports.entrySet().removeIf(e -> !seen.contains(e.getKey()) && clear(e.getValue()));
    }

    /** Marks the current slot absent; true when the port has no value left at all. */
    private boolean clear(long[] values) {
        boolean empty = true;
        for (int c = 0; c < COUNTERS.size(); c++) {
            values[head * COUNTERS.size() + c] = ABSENT;
        }
        for (long v : values) {
            empty &= v == ABSENT;
        }
        return empty;
    }

    private static long[] absent() {
        long[] values = new long[POINTS * COUNTERS.size()];
        java.util.Arrays.fill(values, ABSENT);
        return values;
    }

    /** The sweep times held, oldest first. */
    List<Long> times() {
        List<Long> result = new ArrayList<>(count);
        for (int i = count - 1; i >= 0; i--) {
            result.add(times[(head - i + POINTS) % POINTS]);
        }
        return result;
    }

    /**
     * Port {@code key}'s ({@code guid/port}) values, counter by counter, oldest first, aligned with {@link #times()};
     * null where the port did not report it. Empty when the port is not held.
     */
    Map<String, List<Long>> series(String key) {
        long[] values = ports.get(key);
        Map<String, List<Long>> result = new LinkedHashMap<>();
        if (values == null) {
            return result;
        }
        for (int c = 0; c < COUNTERS.size(); c++) {
            List<Long> series = new ArrayList<>(count);
            for (int i = count - 1; i >= 0; i--) {
                long v = values[((head - i + POINTS) % POINTS) * COUNTERS.size() + c];
                series.add(v == ABSENT ? null : v);
            }
            result.put(COUNTERS.get(c), series);
        }
        return result;
    }
}
