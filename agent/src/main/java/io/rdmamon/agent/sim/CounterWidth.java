package io.rdmamon.agent.sim;

/**
 * How a simulated counter behaves at the top of its range. Values are unsigned 64-bit held in a
 * {@code long}; every comparison uses the unsigned forms.
 */
enum CounterWidth {
    /** 64-bit counter: wraps modulo 2^64 like the kernel's u64 (Java long addition wraps the same way). */
    U64(64, false),
    /** IB PortCounters fields of 4, 8, 16 and 32 bits stick at their maximum (e.g. port_xmit_wait = 4294967295). */
    PMA_4(4, true),
    PMA_8(8, true),
    PMA_16(16, true),
    PMA_32(32, true);

    private final long max;
    private final boolean saturating;

    CounterWidth(int bits, boolean saturating) {
        this.max = bits == 64 ? -1L : (1L << bits) - 1;
        this.saturating = saturating;
    }

    /** The largest value, as an unsigned long. */
    long max() {
        return max;
    }

    /** {@code current + delta} with this width's overflow rule; {@code delta} is unsigned. */
    long add(long current, long delta) {
        if (!saturating) {
            return current + delta;
        }
        long room = max - current;
        return Long.compareUnsigned(delta, room) >= 0 ? max : current + delta;
    }

    /** {@code value} clipped into range (used for initial values). */
    long clamp(long value) {
        return saturating && Long.compareUnsigned(value, max) > 0 ? max : value;
    }
}
