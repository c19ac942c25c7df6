package io.rdmamon.agent.ethtool;

import io.rdmamon.protocol.model.CounterMap;
import io.rdmamon.protocol.model.EthtoolStats;

import java.util.BitSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The agent's {@link EthtoolStats} of each sample, with the typed view's name rules resolved once per netdev
 * and list of statistic names ({@link EthtoolStats.Derivation}) instead of on every sample as
 * {@link EthtoolStats#of} does: a netdev lists the same names sample after sample (a driver changes them only
 * when, say, PFC is enabled on another priority), so its rules and {@link CounterMap.Keys} are kept and the
 * values go into a {@link CounterMap} over them. A netdev whose names changed gets its rules resolved again.
 * The result equals {@link EthtoolStats#of} of the same statistics.
 *
 * <p>Thread-safe: a stuck read may leave an old sample running beside a new one; entries are immutable.
 */
public final class EthtoolViews {
    /** {@link CounterMap#of}'s "no value absent"; never changed. */
    private static final BitSet NONE_ABSENT = new BitSet();

    /** The names a netdev listed last, in order, with the rules and keys made for them. */
    private record Resolved(List<String> names, CounterMap.Keys keys, EthtoolStats.Derivation derivation) {
        static Resolved of(Map<String, Long> raw) {
            List<String> names = List.copyOf(raw.keySet());
            CounterMap.Keys keys = new CounterMap.Keys(names);
            return new Resolved(names, keys, new EthtoolStats.Derivation(keys));
        }

        /** Whether {@code raw} lists exactly these names in this order, compared without copying them. */
        boolean lists(Map<String, Long> raw) {
            if (raw.size() != names.size()) {
                return false;
            }
            Iterator<String> listed = raw.keySet().iterator();
            for (String name : names) {
                if (!name.equals(listed.next())) {
                    return false;
                }
            }
            return true;
        }
    }

    private final Map<String, Resolved> byNetdev = new ConcurrentHashMap<>();
    private final AtomicInteger resolutions = new AtomicInteger();

    /** {@link EthtoolStats#of}{@code (netdev, raw)}: the statistics of one sample with their typed view. */
    public EthtoolStats of(String netdev, LinkedHashMap<String, Long> raw) {
        long[] values = new long[raw.size()];
        int i = 0;
        for (Long value : raw.values()) {
            if (value == null) {
                // no source gives an absent value, and a CounterMap would not show one alike: the plain way
                return EthtoolStats.of(netdev, raw);
            }
            values[i++] = value;
        }
        Resolved resolved = byNetdev.get(netdev);
        if (resolved == null || !resolved.lists(raw)) {
            resolved = Resolved.of(raw);
            resolutions.incrementAndGet();
            byNetdev.put(netdev, resolved);
        }
        return resolved.derivation().derive(netdev, CounterMap.of(resolved.keys(), values, NONE_ABSENT, 0));
    }

    /** How many times name rules were resolved: once per netdev and list of names (tests). */
    int resolutions() {
        return resolutions.get();
    }
}
