package io.rdmamon.agent.sim;

import io.rdmamon.protocol.rates.CounterWidth;

/** One monotonic simulated counter; unsigned 64-bit value with the overflow rule of its width. */
final class Counter {
    private final CounterWidth width;
    private long value;
    /** Fractional events not yet counted, so that slow rates (0.2/s) still advance over several ticks. */
    private final Carry carry = new Carry();

    Counter(CounterWidth width, long initial) {
        this.width = width;
        this.value = width.clamp(initial);
    }

    long value() {
        return value;
    }

    /** Adds a whole number of events; {@code delta} is unsigned. */
    void add(long delta) {
        value = width.add(value, delta);
    }

    /** Adds a non-negative, possibly fractional, amount; the fraction carries over to the next call. */
    void add(double amount) {
        add(carry.take(amount));
    }
}
