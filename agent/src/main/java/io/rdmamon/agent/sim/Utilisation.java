package io.rdmamon.agent.sim;

import java.util.random.RandomGenerator;

/**
 * A link utilisation (fraction of line rate) that wanders smoothly around a mean: an
 * Ornstein-Uhlenbeck process, exact for any step length, so one 10 s step and ten 1 s steps have
 * the same statistics. Training traffic is bursty but has a stable average; this captures both.
 */
final class Utilisation {
    private static final double FLOOR = 0.005;
    private static final double CEILING = 0.97;

    private final double mean;
    private final double volatility;
    private final double correlationSeconds;
    private double value;

    /**
     * @param mean               long-run average fraction of line rate
     * @param volatility         stationary standard deviation
     * @param correlationSeconds how long a burst or a lull lasts, roughly
     */
    Utilisation(double mean, double volatility, double correlationSeconds) {
        this.mean = mean;
        this.volatility = volatility;
        this.correlationSeconds = correlationSeconds;
        this.value = mean;
    }

    double value() {
        return value;
    }

    /** Moves {@code seconds} forward and returns the mean utilisation over that step. */
    double step(double seconds, RandomGenerator random) {
        double before = value;
        double keep = Math.exp(-seconds / correlationSeconds);
        double next = mean + (value - mean) * keep
                + volatility * Math.sqrt(1 - keep * keep) * random.nextGaussian();
        value = Math.max(FLOOR, Math.min(CEILING, next));
        return (before + value) / 2;
    }
}
