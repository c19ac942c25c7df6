package io.rdmamon.protocol.rates;

/**
 * Per-second rate of one counter between two reads. Values are unsigned 64-bit (held in a long).
 *
 * <p>A value that went down is either a wrap (only for a wrapping counter narrower than 64 bits,
 * when the wrapped delta is below half the range; anything else is more likely a reset) or a
 * reset (counters cleared, driver reloaded): a reset gives no rate, because the true increase is
 * unknown. A saturating counter at its maximum gives no rate either: it no longer counts.
 *
 * @param status     what happened between the reads
 * @param perSecond  the rate; NaN unless {@link #hasRate()}
 */
public record CounterRate(Status status, double perSecond) {

    public enum Status {
        /** Plain increase (or no change). */
        OK,
        /** The counter wrapped past its width once; the rate accounts for it. */
        WRAPPED,
        /** The counter went down: cleared or restarted. No rate. */
        RESET,
        /** A saturating counter is stuck at its maximum. No rate. */
        SATURATED,
        /** The reads are not in time order (or at the same instant). No rate. */
        NO_INTERVAL
    }

    public boolean hasRate() {
        return status == Status.OK || status == Status.WRAPPED;
    }

    /** The rate of a counter read as {@code previous} and, {@code elapsedMillis} later, as {@code current}. */
    public static CounterRate between(long previous, long current, long elapsedMillis, CounterWidth width) {
        if (elapsedMillis <= 0) {
            return new CounterRate(Status.NO_INTERVAL, Double.NaN);
        }
        if (width.saturating() && current == width.max()) {
            return new CounterRate(Status.SATURATED, Double.NaN);
        }
        double seconds = elapsedMillis / 1000.0;
        if (Long.compareUnsigned(current, previous) >= 0) {
            return new CounterRate(Status.OK, unsignedToDouble(current - previous) / seconds);
        }
        if (!width.saturating() && width.bits() < 64) {
            long range = 1L << width.bits();
            long wrappedDelta = current + range - previous;
            if (Long.compareUnsigned(previous, width.max()) <= 0 && wrappedDelta < range / 2) {
                return new CounterRate(Status.WRAPPED, wrappedDelta / seconds);
            }
        }
        return new CounterRate(Status.RESET, Double.NaN);
    }

    /** {@code value} read as unsigned 64-bit. */
    public static double unsignedToDouble(long value) {
        double d = (double) (value >>> 1) * 2.0;
        return d + (value & 1L);
    }
}
