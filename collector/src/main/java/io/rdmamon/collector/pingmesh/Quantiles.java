package io.rdmamon.collector.pingmesh;

/** Nearest-rank quantiles of sorted round trips (the smallest value with at least q of the values at or below it). */
final class Quantiles {
    private Quantiles() {
    }

    /** The {@code q} quantile of {@code sortedNanos} (its first {@code count} values), in seconds; NaN when empty. */
    static double seconds(int[] sortedNanos, int count, double q) {
        if (count == 0) {
            return Double.NaN;
        }
        int rank = (int) Math.ceil(q * count);
        return sortedNanos[Math.max(0, Math.min(count, rank) - 1)] / 1e9;
    }
}
