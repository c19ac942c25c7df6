package io.rdmamon.cli.node;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Per-second rates of counters between two reads. The only place in the CLI that turns counter
 * deltas into rates: to be replaced by the shared rate calculator of
 * {@code io.rdmamon.protocol.rates} (counter widths, wraps) when it is merged.
 *
 * <p>Counters are unsigned 64-bit values held in {@code long}. A counter that went backwards was
 * reset (driver reload, port reset): it has no rate for that interval rather than a huge one.
 */
final class CounterDeltas {
    private CounterDeltas() {
    }

    /** Rate of one counter; null when either read is absent or the counter went backwards. */
    static Double perSecond(Long previous, Long current, double seconds) {
        if (previous == null || current == null || Long.compareUnsigned(current, previous) < 0) {
            return null;
        }
        return unsignedToDouble(current - previous) / seconds;
    }

    /** Rates of every counter present in both reads, in the order of {@code current}. */
    static Map<String, Double> perSecond(Map<String, Long> previous, Map<String, Long> current, double seconds) {
        Map<String, Double> rates = new LinkedHashMap<>();
        current.forEach((name, value) -> {
            Double rate = perSecond(previous.get(name), value, seconds);
            if (rate != null) {
                rates.put(name, rate);
            }
        });
        return rates;
    }

    private static double unsignedToDouble(long value) {
        double d = (double) (value >>> 1) * 2.0;
        return d + (value & 1);
    }
}
