package io.rdmamon.collector.live;

import java.util.List;

/**
 * Fixed-size ring of detail points of one port: one float array per series, one long array of
 * timestamps. Confined to the event loop.
 */
final class PortHistory {
    /** Points newer than some timestamp, oldest first; {@code values[series][i]}. */
    record Slice(long[] timestamps, float[][] values) {
        int size() {
            return timestamps.length;
        }
    }

    private final long[] timestamps;
    private final float[][] values;
    private int start;
    private int size;
    private List<MovedCounter> moved = List.of();

    PortHistory(int capacity, int seriesCount) {
        timestamps = new long[capacity];
        values = new float[seriesCount][capacity];
    }

    void append(long timestampMillis, float[] point) {
        int slot;
        if (size < timestamps.length) {
            slot = (start + size++) % timestamps.length;
        } else {
            slot = start;
            start = (start + 1) % timestamps.length;
        }
        timestamps[slot] = timestampMillis;
        for (int s = 0; s < values.length; s++) {
            values[s][slot] = point[s];
        }
    }

    /** Timestamp of the newest point; {@link Long#MIN_VALUE} when empty. */
    long lastTimestamp() {
        return size == 0 ? Long.MIN_VALUE : timestamps[(start + size - 1) % timestamps.length];
    }

    int size() {
        return size;
    }

    /** The points with a timestamp above {@code afterMillis}. */
    Slice since(long afterMillis) {
        int skip = 0;
        while (skip < size && timestamps[(start + skip) % timestamps.length] <= afterMillis) {
            skip++;
        }
        int count = size - skip;
        long[] ts = new long[count];
        float[][] vs = new float[values.length][count];
        for (int i = 0; i < count; i++) {
            int slot = (start + skip + i) % timestamps.length;
            ts[i] = timestamps[slot];
            for (int s = 0; s < values.length; s++) {
                vs[s][i] = values[s][slot];
            }
        }
        return new Slice(ts, vs);
    }

    /** Counters that moved between the two newest samples (the counters view). */
    List<MovedCounter> moved() {
        return moved;
    }

    void moved(List<MovedCounter> value) {
        moved = List.copyOf(value);
    }
}
