package io.rdmamon.agent.ethtool;

import io.rdmamon.protocol.model.CounterMap;
import io.rdmamon.protocol.model.EthtoolStats;
import io.rdmamon.protocol.model.IbPort;

import java.util.BitSet;
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

    /** The names a netdev listed last, with the rules and keys made for them. */
    private record Resolved(List<String> names, CounterMap.Keys keys, EthtoolStats.Derivation derivation) {
        static Resolved of(List<String> names) {
            CounterMap.Keys keys = new CounterMap.Keys(names);
            return new Resolved(names, keys, new EthtoolStats.Derivation(keys));
        }
    }

    private static final System.Logger LOG = System.getLogger(EthtoolViews.class.getName());
    private final Map<String, Resolved> byNetdev = new ConcurrentHashMap<>();
    /** Netdevs whose statistics were cut to {@link IbPort#MAX_COUNTERS_PER_GROUP} (logged once each). */
    private final java.util.Set<String> truncated = ConcurrentHashMap.newKeySet();
    private final AtomicInteger resolutions = new AtomicInteger();

    /** {@link EthtoolStats#of} of {@code raw} as a map: the statistics of one sample with their typed view. */
    public EthtoolStats of(String netdev, RawStatistics raw) {
        if (raw.names().size() > IbPort.MAX_COUNTERS_PER_GROUP) {
            // bounded like the GID table: the first statistics in the driver's order are sent
            if (truncated.add(netdev)) {
                LOG.log(System.Logger.Level.WARNING, "{0} lists {1} ethtool statistics: the first {2} are sent, the"
                        + " rest left out", netdev, raw.names().size(), IbPort.MAX_COUNTERS_PER_GROUP);
            }
            raw = new RawStatistics(raw.names().subList(0, IbPort.MAX_COUNTERS_PER_GROUP),
                    java.util.Arrays.copyOf(raw.values(), IbPort.MAX_COUNTERS_PER_GROUP));
        }
        Resolved resolved = byNetdev.get(netdev);
        // the same list when the source saw the same names; else compared (an ioctl source makes a new list)
        if (resolved == null || (resolved.names() != raw.names() && !resolved.names().equals(raw.names()))) {
            resolved = Resolved.of(raw.names());
            resolutions.incrementAndGet();
            byNetdev.put(netdev, resolved);
        }
        return resolved.derivation().derive(netdev, CounterMap.of(resolved.keys(), raw.values(), NONE_ABSENT, 0));
    }

    /** How many times name rules were resolved: once per netdev and list of names (tests). */
    int resolutions() {
        return resolutions.get();
    }
}
