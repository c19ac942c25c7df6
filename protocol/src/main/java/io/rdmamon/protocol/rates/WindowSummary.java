package io.rdmamon.protocol.rates;

import java.util.Optional;

/**
 * Maximum, average and minimum of the last {@code capacity} per-second values of one series
 * (e.g. rx bytes per second), as {@code eadm stat} prints at the end of a run.
 *
 * <p>Memory is bounded: once full, each new value evicts the oldest, so a run of any length
 * summarises its most recent window. Not thread-safe; callers that add from one thread and
 * summarise from another (a shutdown hook) synchronise themselves.
 */
public final class WindowSummary {
    /** The window's statistics. {@code count} is how many values they cover (≤ capacity). */
    public record Summary(double max, double average, double min, int count) {
    }

    private final double[] values;
    private int next;
    private int count;

    public WindowSummary(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("window capacity must be >= 1, got " + capacity);
        }
        this.values = new double[capacity];
    }

    public int capacity() {
        return values.length;
    }

    /** Adds one per-second value; rejects NaN and infinities, which no counter delta can produce. */
    public void add(double perSecond) {
        if (!Double.isFinite(perSecond)) {
            throw new IllegalArgumentException("per-second value must be finite, got " + perSecond);
        }
        values[next] = perSecond;
        next = (next + 1) % values.length;
        count = Math.min(count + 1, values.length);
    }

    /** Number of values currently in the window. */
    public int count() {
        return count;
    }

    /**
     * The window's max/avg/min, empty when nothing was added. The sum is recomputed from the
     * window on each call (rather than kept running) so that evictions never accumulate
     * floating-point drift; a summary is asked for rarely, values are added often.
     */
    public Optional<Summary> summary() {
        if (count == 0) {
            return Optional.empty();
        }
        double max = Double.NEGATIVE_INFINITY;
        double min = Double.POSITIVE_INFINITY;
        double sum = 0;
        for (int i = 0; i < count; i++) {
            double v = values[i];
            max = Math.max(max, v);
            min = Math.min(min, v);
            sum += v;
        }
        return Optional.of(new Summary(max, sum / count, min, count));
    }
}
