package io.rdmamon.collector.pingmesh;

import java.util.Arrays;

/** Round trips merged from several probes, with their sent and lost counts, for the quantiles of a window. */
final class RoundTrips {
    private int[] nanos = new int[32];
    private int count;
    private boolean sorted = true;
    long sent;
    long lost;

    void add(ProbePoint point) {
        sent += point.sent();
        lost += point.lost();
        int[] more = point.rttNanos();
        if (more == null || more.length == 0) {
            return;
        }
        if (count + more.length > nanos.length) {
            nanos = Arrays.copyOf(nanos, Math.max(nanos.length * 2, count + more.length));
        }
        System.arraycopy(more, 0, nanos, count, more.length);
        count += more.length;
        sorted = false;
    }

    double quantileSeconds(double q) {
        if (!sorted) {
            Arrays.sort(nanos, 0, count);
            sorted = true;
        }
        return Quantiles.seconds(nanos, count, q);
    }
}
