package io.rdmamon.collector.store;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The headline rate history of one node's ports, in primitive rings: one timestamp ring per node (every port of a
 * sample shares its timestamp) and, per port, one float array holding the four rates of each point side by side.
 * A boxed {@link RatePoint} with four {@code Double}s in an {@code ArrayDeque} cost about 110 bytes a point; this
 * costs {@value #BYTES_PER_PORT_POINT} per port and point plus {@value #BYTES_PER_NODE_POINT} per node and point,
 * which is what lets 2,000 8-port nodes keep 15 minutes at 1 Hz in a few hundred MiB. Rates are floats: a chart
 * needs no more than their 24-bit mantissa (the dashboard's detail history keeps floats too). NaN = unknown.
 *
 * <p>The rings grow by doubling up to the current limit, so a small fleet does not pay for the full history up
 * front; {@link #limit(int)} shrinks them, dropping the oldest points. Not thread-safe: the store's lock guards it.
 */
final class NodeHistory {
    /** Memory of one point of one port: four float rates. */
    static final int BYTES_PER_PORT_POINT = 4 * Float.BYTES;
    /** Memory of one point of the node: its timestamp. */
    static final int BYTES_PER_NODE_POINT = Long.BYTES;
    private static final int RATES = 4;
    private static final int FIRST_CAPACITY = 16;

    /** One port's ring: rates at the node ring's slots; only its newest {@code count} slots are its points. */
    private static final class PortRing {
        float[] rates;
        int count;

        PortRing(int capacity) {
            rates = new float[capacity * RATES];
        }
    }

    private long[] timestamps = new long[0];
    /** Slot of the oldest point. */
    private int start;
    private int size;
    private final Map<String, PortRing> ports = new LinkedHashMap<>();

    /** Bytes a point costs over all this node's ports, the figure the store's budget divides. */
    long bytesPerPoint() {
        return BYTES_PER_NODE_POINT + (long) BYTES_PER_PORT_POINT * ports.size();
    }

    /** Bytes held by the rings (their allocated capacity, not only the points in use). */
    long bytes() {
        return (long) timestamps.length * (BYTES_PER_NODE_POINT + (long) BYTES_PER_PORT_POINT * ports.size());
    }

    int size() {
        return size;
    }

    /**
     * Appends one point for the ports in {@code points} ({@code device/port} → the four headline rates), at most
     * {@code pointLimit} points kept (at least one); ports not in it are dropped. Returns the port-points dropped to respect
     * the limit below the capacity the history had (shed, not aged out). {@code pointLimit} is taken as the full
     * history: a full ring at it ages its oldest point out, not shed.
     */
    long append(long timestampMillis, Map<String, RatePoint> points, int pointLimit) {
        return append(timestampMillis, points, pointLimit, pointLimit);
    }

    /**
     * As {@link #append(long, Map, int)}, where {@code fullPoints} is the history kept without a memory budget
     * ({@code historyPoints}): while {@code pointLimit} is below it, a full ring that drops its oldest point to take
     * the new one drops a point the full history would still hold, and that point counts as shed like the ones a
     * lower limit cuts off. Returns every port-point dropped because of the budget.
     */
    long append(long timestampMillis, Map<String, RatePoint> points, int pointLimit, int fullPoints) {
        int limit = Math.max(1, pointLimit);
        ports.keySet().retainAll(points.keySet());
        long shed = limit(limit);
        if (size == timestamps.length && size < limit) {
            resize(Math.min(limit, Math.max(FIRST_CAPACITY, size * 2)));
        }
        int slot;
        if (size < timestamps.length) {
            slot = (start + size++) % timestamps.length;
        } else {
            slot = start; // full at the limit: the oldest point goes
            start = (start + 1) % timestamps.length;
            if (size < fullPoints) {
                // the budget holds the ring below the full history: the ports that held that point lost it to it
                for (PortRing ring : ports.values()) {
                    if (ring.count == size) {
                        shed++;
                    }
                }
            }
        }
        timestamps[slot] = timestampMillis;
        for (Map.Entry<String, RatePoint> entry : points.entrySet()) {
            PortRing ring = ports.computeIfAbsent(entry.getKey(), k -> new PortRing(timestamps.length));
            RatePoint point = entry.getValue();
            int at = slot * RATES;
            ring.rates[at] = orNaN(point.rxBytesPerSecond());
            ring.rates[at + 1] = orNaN(point.txBytesPerSecond());
            ring.rates[at + 2] = orNaN(point.rxPacketsPerSecond());
            ring.rates[at + 3] = orNaN(point.txPacketsPerSecond());
            ring.count = Math.min(ring.count + 1, size);
        }
        return shed;
    }

    /**
     * Keeps at most {@code limit} points (at least one), dropping the oldest; returns the port-points dropped.
     * Frees the memory beyond {@code limit}.
     */
    long limit(int limit) {
        int keep = Math.max(1, limit);
        if (timestamps.length <= keep) {
            return 0;
        }
        long shed = 0;
        int dropped = Math.max(0, size - keep);
        for (PortRing ring : ports.values()) {
            shed += Math.max(0, ring.count - keep);
        }
        start = (start + dropped) % timestamps.length;
        size -= dropped;
        resize(keep);
        return shed;
    }

    /** Re-lays the rings at {@code capacity} slots (at least {@link #size}), oldest point at slot 0. */
    private void resize(int capacity) {
        long[] ts = new long[capacity];
        for (int i = 0; i < size; i++) {
            ts[i] = timestamps[(start + i) % timestamps.length];
        }
        for (PortRing ring : ports.values()) {
            float[] rates = new float[capacity * RATES];
            for (int i = 0; i < size; i++) {
                System.arraycopy(ring.rates, ((start + i) % timestamps.length) * RATES, rates, i * RATES, RATES);
            }
            ring.rates = rates;
            ring.count = Math.min(ring.count, size);
        }
        timestamps = ts;
        start = 0;
    }

    /** The ports' points, oldest first, as the API shows them ({@code device/port} → points). */
    Map<String, List<RatePoint>> points() {
        Map<String, List<RatePoint>> copy = new LinkedHashMap<>();
        ports.forEach((key, ring) -> {
            List<RatePoint> list = new ArrayList<>(ring.count);
            for (int i = size - ring.count; i < size; i++) {
                int slot = (start + i) % timestamps.length;
                int at = slot * RATES;
                list.add(new RatePoint(timestamps[slot], boxed(ring.rates[at]), boxed(ring.rates[at + 1]),
                        boxed(ring.rates[at + 2]), boxed(ring.rates[at + 3])));
            }
            copy.put(key, List.copyOf(list));
        });
        return copy;
    }

    private static float orNaN(Double value) {
        return value == null ? Float.NaN : value.floatValue();
    }

    /**
     * Back to the API's number: null for unknown; otherwise the float's shortest decimal, so that JSON shows
     * {@code 1234.5677} rather than the binary expansion {@code 1234.5677490234375}.
     */
    private static Double boxed(float value) {
        return Float.isNaN(value) ? null : Double.valueOf(Float.toString(value));
    }
}
