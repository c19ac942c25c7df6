package io.rdmamon.agent.stream;

import java.time.Duration;
import java.util.random.RandomGenerator;

/**
 * Exponential backoff with full jitter: the n-th retry waits a uniformly random time in
 * [0, min(cap, base × 2^n)]. Spreading over the whole window keeps a fleet of agents that lost
 * the collector at the same instant from reconnecting in lockstep.
 */
public final class Backoff {
    /** The first reconnect window. */
    public static final Duration DEFAULT_BASE = Duration.ofSeconds(1);
    /**
     * The largest reconnect window. After a collector restart an agent that has been retrying for a
     * while waits a uniform delay in [0, cap], so the cap is how long the last agents stay away: 60 s
     * meant a minute of gap on every node's charts for a restart that takes seconds. 15 s keeps that
     * short while full jitter still spreads the fleet: 2,000 agents (the collector's benchmarked size,
     * docs/performance.md) come back at about 130 connections a second on average, not all in one instant.
     */
    public static final Duration DEFAULT_CAP = Duration.ofSeconds(15);

    private final long baseMillis;
    private final long capMillis;
    private final RandomGenerator random;
    private int attempt;

    public Backoff(Duration base, Duration cap, RandomGenerator random) {
        if (base.isNegative() || base.isZero() || cap.compareTo(base) < 0) {
            throw new IllegalArgumentException("backoff needs 0 < base <= cap, got base " + base + ", cap " + cap);
        }
        this.baseMillis = base.toMillis();
        this.capMillis = cap.toMillis();
        this.random = random;
    }

    /** The upper bound of the next delay. */
    public long windowMillis() {
        // 2^attempt overflows past 62; the cap is reached long before
        return attempt >= 30 ? capMillis : Math.min(capMillis, baseMillis << attempt);
    }

    /** The delay before the next attempt; each call widens the window until the cap. */
    public long nextDelayMillis() {
        long delay = random.nextLong(windowMillis() + 1);
        attempt++;
        return delay;
    }

    /** After a connection proved healthy: start again from the base window. */
    public void reset() {
        attempt = 0;
    }
}
