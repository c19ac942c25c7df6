package io.rdmamon.cli.node;

import io.rdmamon.protocol.rates.CounterRate;
import io.rdmamon.protocol.rates.CounterWidth;

/**
 * Per-second rates of counters between two reads, through the shared {@link CounterRate} (counter
 * widths, 32-bit wraps, saturated PMA counters, resets).
 */
final class CounterDeltas {
    private CounterDeltas() {
    }

    /**
     * Rate of one counter; null when either read is absent or no rate can be given (reset, a
     * saturated counter, no interval).
     */
    static Double perSecond(Long previous, Long current, double seconds, CounterWidth width) {
        if (previous == null || current == null) {
            return null;
        }
        CounterRate rate = CounterRate.between(previous, current, Math.round(seconds * 1000), width);
        return rate.hasRate() ? rate.perSecond() : null;
    }
}
