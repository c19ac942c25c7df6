package io.rdmamon.agent.sim;

import io.rdmamon.protocol.rates.CounterGroup;
import io.rdmamon.protocol.rates.CounterWidth;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * Named counters in the order the kernel lists them (a {@code counters/} dir, or one ethtool group). Each counts
 * with the width the collector assumes for its name ({@link CounterWidth#of}), so both agree on wraps and
 * saturation.
 */
final class CounterSet {
    private final CounterGroup group;
    private final Map<String, Counter> counters = new LinkedHashMap<>();

    CounterSet(CounterGroup group) {
        this.group = group;
    }

    /** Adds a counter at the end, starting at zero. */
    CounterSet define(String name) {
        if (counters.putIfAbsent(name, new Counter(CounterWidth.of(group, name), 0)) != null) {
            throw new IllegalStateException("counter defined twice: " + name);
        }
        return this;
    }

    boolean has(String name) {
        return counters.containsKey(name);
    }

    long value(String name) {
        return counter(name).value();
    }

    void add(String name, long delta) {
        counter(name).add(delta);
    }

    void add(String name, double amount) {
        counter(name).add(amount);
    }

    /** Names in definition order. */
    Set<String> names() {
        return Collections.unmodifiableSet(counters.keySet());
    }

    private Counter counter(String name) {
        Counter counter = counters.get(name);
        if (counter == null) {
            throw new IllegalArgumentException("no such simulated counter: " + name);
        }
        return counter;
    }

    /** {@code "%llu\n"}, as sysfs prints a counter. */
    static String sysfsValue(long value) {
        return Long.toUnsignedString(value) + "\n";
    }

    /**
     * The text {@code ethtool -S} prints for these counters: a {@code NIC statistics:} header, then one
     * {@code "     name: value"} line per counter (ethtool's {@code "     %.*s: %llu\n"}).
     */
    String ethtoolText() {
        StringBuilder text = new StringBuilder(64 + counters.size() * 40).append("NIC statistics:\n");
        counters.forEach((name, counter) -> text.append("     ").append(name).append(": ")
                .append(Long.toUnsignedString(counter.value())).append('\n'));
        return text.toString();
    }
}
