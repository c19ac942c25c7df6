package io.rdmamon.protocol.probe;

import java.util.List;
import java.util.Objects;

/**
 * The round trips of one latency probe, in the order they were measured ({@code ib_send_lat -U}). perftest prints
 * half of each round trip in microseconds for send and write tests (its {@code rtt_factor} 2); the parser doubles
 * it and keeps nanoseconds, so that a pingmesh cell holds round trips like every other pingmesh.
 *
 * @param sizeBytes  message size ({@code -s})
 * @param iterations exchanges asked for ({@code -n}); perftest reports one round trip fewer (the gaps between posts)
 * @param rttNanos   each measured round trip, nanoseconds, never negative; empty when untimed
 * @param untimed    why the exchanges completed but were not timed, perftest's own words (its CPU clock calibration
 *                   failed: {@code "Correlation coefficient r^2: 0.14 < 0.9"} when the host stalled it, and every
 *                   round trip printed as {@code inf}); null when timed. Not a loss: the path answered.
 */
public record LatencyResult(long sizeBytes, int iterations, List<Long> rttNanos, String untimed) {
    /** perftest's own lower bound for {@code -n} in latency tests ("at least 5"). */
    public static final int MIN_ITERATIONS = 5;
    /** Our bound: a pingmesh probe is short, and its report travels in one frame. */
    public static final int MAX_ITERATIONS = 10_000;

    public LatencyResult {
        Objects.requireNonNull(rttNanos, "rttNanos");
        rttNanos = List.copyOf(rttNanos);
        if (sizeBytes < 0 || iterations < 0) {
            throw new IllegalArgumentException("latency result with a negative size " + sizeBytes + " or iterations "
                    + iterations);
        }
        if (untimed != null && !rttNanos.isEmpty()) {
            throw new IllegalArgumentException("an untimed latency result with " + rttNanos.size() + " round trips");
        }
        if (rttNanos.size() > MAX_ITERATIONS) {
            throw new IllegalArgumentException("latency result with " + rttNanos.size() + " round trips, more than "
                    + MAX_ITERATIONS);
        }
        for (long rtt : rttNanos) {
            if (rtt < 0) {
                throw new IllegalArgumentException("latency result with a negative round trip " + rtt + " ns");
            }
        }
    }

    /** Timed round trips. */
    public LatencyResult(long sizeBytes, int iterations, List<Long> rttNanos) {
        this(sizeBytes, iterations, rttNanos, null);
    }

    /** Exchanges that completed but that perftest could not time, for {@code reason}. */
    public static LatencyResult untimed(long sizeBytes, int iterations, String reason) {
        return new LatencyResult(sizeBytes, iterations, List.of(), java.util.Objects.requireNonNull(reason, "reason"));
    }
}
