package io.rdmamon.collector.diagnosis;

import io.rdmamon.protocol.model.TransceiverModule;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One port's transceiver lanes' received optical power over the trailing baseline window (1 h by default), for
 * module_power_out_of_range's drift check: a lane's baseline is its highest {@link #BUCKETS}th-of-the-window mean
 * (5-minute means of the last hour), so a lane that fell stays "below its baseline" for the whole window, rather than
 * dragging a running mean down with it until the drop no longer shows. After the window the new level is the lane's
 * normal; the module's own warning thresholds still judge it.
 *
 * <p>A baseline exists once {@link #MIN_COMPLETE_BUCKETS} buckets are complete (10 minutes by default): a module just
 * plugged in, or a collector just started, is not judged against a few seconds of itself. Another module in the cage
 * (serial, part or lane count changed) starts over. Memory: {@link #BUCKETS} floats per lane; only ports whose
 * module reports Rx power have one.
 *
 * <p>Not thread-safe: the diagnosis engine calls it under its own lock.
 */
public final class RxPowerBaseline {
    /** Buckets per window: 12, 5-minute means of a 1 h window. */
    static final int BUCKETS = 12;
    static final int MIN_COMPLETE_BUCKETS = 2;

    /** The mean Rx power of each lane over one bucket (NaN: no reading in it). */
    private record Bucket(long startMillis, float[] means) {
    }

    private final long bucketMillis;
    private final ArrayDeque<Bucket> complete = new ArrayDeque<>(BUCKETS);
    private String module;
    private long currentStart = Long.MIN_VALUE;
    private double[] sums;
    private int[] counts;

    public RxPowerBaseline(Duration window) {
        this.bucketMillis = Math.max(1, window.toMillis() / BUCKETS);
    }

    /**
     * Takes the Rx powers of {@code m} read at {@code timestampMillis} and returns each lane's baseline before this
     * reading (lane → watts; empty while there is too little history, or for a new module).
     */
    public Map<Integer, Double> update(TransceiverModule m, long timestampMillis) {
        String identity = m.serial() + "/" + m.part() + "/" + m.lanes().size();
        if (!identity.equals(module)) {
            module = identity;
            complete.clear();
            currentStart = Long.MIN_VALUE;
        }
        int lanes = m.lanes().size();
        if (currentStart == Long.MIN_VALUE || timestampMillis < currentStart
                || timestampMillis - currentStart >= bucketMillis) {
            closeBucket(lanes);
            currentStart = timestampMillis - Math.floorMod(timestampMillis, bucketMillis);
        }
        while (!complete.isEmpty() && complete.peekFirst().startMillis() <= currentStart - BUCKETS * bucketMillis) {
            complete.removeFirst();
        }
        Map<Integer, Double> baseline = baseline(m);
        for (int i = 0; i < lanes; i++) {
            Double rx = m.lanes().get(i).rxPowerWatts();
            if (rx != null && Double.isFinite(rx)) {
                sums[i] += rx;
                counts[i]++;
            }
        }
        return baseline;
    }

    private void closeBucket(int lanes) {
        if (sums != null && currentStart != Long.MIN_VALUE && sums.length == lanes) {
            float[] means = new float[lanes];
            for (int i = 0; i < lanes; i++) {
                means[i] = counts[i] == 0 ? Float.NaN : (float) (sums[i] / counts[i]);
            }
            complete.addLast(new Bucket(currentStart, means));
        }
        sums = new double[lanes];
        counts = new int[lanes];
    }

    private Map<Integer, Double> baseline(TransceiverModule m) {
        if (complete.size() < MIN_COMPLETE_BUCKETS) {
            return Map.of();
        }
        Map<Integer, Double> baseline = new LinkedHashMap<>();
        for (int i = 0; i < m.lanes().size(); i++) {
            final int lane = i;
            double best = complete.stream().mapToDouble(b -> b.means()[lane]).filter(v -> !Double.isNaN(v))
                    .max().orElse(Double.NaN);
            if (!Double.isNaN(best)) {
                baseline.put(m.lanes().get(i).lane(), best);
            }
        }
        return baseline;
    }
}
