package io.rdmamon.cli.node;

import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.util.concurrent.TimeUnit;

/**
 * {@code -t SEC} and {@code -c N} of the sampling subcommands, as in {@code mlnx_perf}: sample every
 * SEC seconds (fractions allowed), stop after N intervals or run until interrupted.
 * Invalid values are usage errors (exit 2) raised while parsing.
 */
public final class IntervalOptions {
    @Spec(Spec.Target.MIXEE)
    CommandSpec mixee;

    private double intervalSeconds = 1;
    private Integer count;
    private boolean given;

    @Option(names = {"-t", "--interval"}, paramLabel = "SEC",
            description = "Seconds between samples, > 0 (fractions allowed). Default: 1.")
    void setInterval(String value) {
        double seconds;
        try {
            seconds = Double.parseDouble(value);
        } catch (NumberFormatException e) {
            seconds = Double.NaN;
        }
        // at least a millisecond, at most a day: outside that range the value is a typo
        if (!(seconds >= 0.001 && seconds <= TimeUnit.DAYS.toSeconds(1))) {
            throw new ParameterException(mixee.commandLine(),
                    "invalid value for -t/--interval: '" + value + "' (seconds, > 0 and at most 86400)");
        }
        intervalSeconds = seconds;
        given = true;
    }

    @Option(names = {"-c", "--count"}, paramLabel = "N",
            description = "Stop after N intervals, N >= 1. Default: run until Ctrl-C.")
    void setCount(int n) {
        if (n < 1) {
            throw new ParameterException(mixee.commandLine(),
                    "invalid value for -c/--count: '" + n + "' (intervals, >= 1)");
        }
        count = n;
        given = true;
    }

    /** True when -t or -c was on the command line. */
    public boolean given() {
        return given;
    }

    public double intervalSeconds() {
        return intervalSeconds;
    }

    /** A fresh ticker for one run of the command. */
    public Ticker ticker() {
        return new Ticker(Math.round(intervalSeconds * 1e9), count);
    }

    /**
     * Fixed-rate pacing: tick k is due at start + k × interval, so slow reads do not make the
     * sampling drift (mlnx_perf sleeps a full interval after each read and does drift).
     */
    public static final class Ticker {
        private final long periodNanos;
        private Integer remaining;
        private long nextDueNanos;

        Ticker(long periodNanos, Integer count) {
            this.periodNanos = periodNanos;
            this.remaining = count;
            this.nextDueNanos = System.nanoTime() + periodNanos;
        }

        /** Sleeps until the next tick is due; false (without sleeping) when the count is used up. */
        public boolean awaitNext() throws InterruptedException {
            if (remaining != null) {
                if (remaining == 0) {
                    return false;
                }
                remaining--;
            }
            long wait = nextDueNanos - System.nanoTime();
            if (wait > 0) {
                TimeUnit.NANOSECONDS.sleep(wait);
            }
            nextDueNanos += periodNanos;
            return true;
        }
    }
}
