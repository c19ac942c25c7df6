package io.rdmamon.protocol.model;

import java.lang.ref.WeakReference;
import java.util.List;
import java.util.Map;
import java.util.WeakHashMap;

/**
 * One instance of equal immutable values that every node of a fleet repeats: the names in a layout (a port's counter,
 * hw counter and ethtool statistic names, about 1,300 per 8-port mlx5 node and the same on every node of a model) and
 * the {@link CounterMap.Keys} over them. A collector decodes each agent's layout into strings of its own; shared, they
 * are kept once for the fleet instead of once per node (about 150 KiB per node, 300 MiB of heap at 2,000 nodes:
 * docs/performance.md).
 *
 * <p>Weak and bounded: a pooled value lives only while something else uses it, and once {@code capacity} values
 * are pooled a new one is used as it is, unshared. An agent that sends ever new names (a hostile one, or a
 * fleet of many models) costs its own memory, as without the pool, and never grows the pool. Thread-safe.
 *
 * @param <T> an immutable type whose {@code equals} and {@code hashCode} are those of its content
 */
public final class SharedValues<T> {
    /** Name lists of layouts. */
    public static final SharedValues<List<String>> NAME_LISTS = new SharedValues<>(4096);

    private final int capacity;
    private final Map<T, WeakReference<T>> pool = new WeakHashMap<>();

    public SharedValues(int capacity) {
        this.capacity = capacity;
    }

    /** The pooled value equal to {@code value}, or {@code value} itself (now pooled, when there is room). */
    public synchronized T of(T value) {
        WeakReference<T> pooled = pool.get(value);
        T known = pooled == null ? null : pooled.get();
        if (known != null) {
            return known;
        }
        if (pool.size() < capacity) { // size() first drops the entries whose value is gone
            pool.put(value, new WeakReference<>(value));
        }
        return value;
    }

    /** Values pooled now (tests). */
    synchronized int size() {
        return pool.size();
    }
}
