package io.rdmamon.collector.flaps;

import io.rdmamon.protocol.model.IbPort;
import io.rdmamon.protocol.model.NetdevCounters;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The flap ledger of one port: every sample in which one of its link counters increased, with the sample's time
 * (docs/reference/physical-layer.md §1). The counters are cumulative, so a flap between two samples is never missed,
 * however short;
 * what is lost is only its exact time (the ledger says "between the previous sample and this one").
 *
 * <p>Counters watched: the netdev's {@code carrier_down_count}, {@code carrier_up_count} and
 * {@code carrier_changes} (every port with a netdev), and the IB PMA {@code link_downed} and
 * {@code link_error_recovery} (ports with {@code counters/}). The PMA ones are 8 bits wide and saturate at 255
 * instead of wrapping (mlx5 mad.c): an increase that reaches 255 is "at least" that many, and a counter stuck at
 * 255 can no longer show a flap, which the ledger reports ({@link #saturatedCounters()}) rather than hides. A
 * counter that goes down (driver reload, counter reset) is a new baseline, not a flap.
 *
 * <p>Flaps of one sample = the link downs, counted once although two counters may see the same one (a RoCE port
 * has both a carrier and {@code link_downed}: the larger increase), plus the retrains ({@code link_error_recovery}).
 * Without {@code carrier_down_count} (kernels before 4.16) a down is half the {@code carrier_changes}, rounded up.
 * Not thread-safe: its owner synchronises.
 */
public final class FlapLedger {
    /** Largest value of the 8-bit PMA counters; they stop there. */
    public static final long PMA_8BIT_MAX = 255;
    public static final String LINK_DOWNED = "link_downed";
    public static final String LINK_ERROR_RECOVERY = "link_error_recovery";
    private static final List<String> PMA_COUNTERS = List.of(LINK_DOWNED, LINK_ERROR_RECOVERY);

    /**
     * One counter's increase between two samples.
     *
     * @param saturated the counter reached {@link #PMA_8BIT_MAX}: the increase is a lower bound
     */
    public record CounterChange(String counter, long from, long to, boolean saturated) {
        public long increase() {
            return to - from;
        }
    }

    /**
     * One sample in which the port's link counters increased.
     *
     * @param timestampMillis the sample's time (the agent's clock): the flaps happened since the previous sample
     * @param netdev          the port's netdev then; null for a port without one
     * @param flaps           link downs and retrains this entry counts
     * @param changes         every counter that increased
     */
    public record Entry(long timestampMillis, String netdev, long flaps, List<CounterChange> changes) {
        public Entry {
            changes = List.copyOf(changes);
        }
    }

    private final int maxEntries;
    private final ArrayDeque<Entry> entries = new ArrayDeque<>();
    private final Set<String> saturated = new TreeSet<>();

    /** A ledger keeping at most {@code maxEntries} entries (the oldest go first). */
    public FlapLedger(int maxEntries) {
        if (maxEntries < 1) {
            throw new IllegalArgumentException("maxEntries must be >= 1, got " + maxEntries);
        }
        this.maxEntries = maxEntries;
    }

    /**
     * Records what changed from {@code previous} (null: nothing to compare, only the saturation is noted) to
     * {@code current} at {@code timestampMillis}, and forgets entries at or before {@code forgetUpToMillis}.
     *
     * @return the new entry; null when no counter increased
     */
    public Entry observe(IbPort previous, IbPort current, long timestampMillis, long forgetUpToMillis) {
        saturated.clear();
        for (String counter : PMA_COUNTERS) {
            Long value = current.counters().get(counter);
            if (value != null && value >= PMA_8BIT_MAX) {
                saturated.add(counter);
            }
        }
        Entry entry = previous == null ? null : entry(previous, current, timestampMillis);
        if (entry != null) {
            entries.addLast(entry);
            if (entries.size() > maxEntries) {
                entries.removeFirst();
            }
        }
        while (!entries.isEmpty() && entries.peekFirst().timestampMillis() <= forgetUpToMillis) {
            entries.removeFirst();
        }
        return entry;
    }

    /** Flaps of the entries stamped after {@code afterMillis}. */
    public long flapsAfter(long afterMillis) {
        long total = 0;
        for (Iterator<Entry> it = entries.descendingIterator(); it.hasNext(); ) {
            Entry entry = it.next();
            if (entry.timestampMillis() <= afterMillis) {
                break;
            }
            total += entry.flaps();
        }
        return total;
    }

    /** The entries, oldest first. */
    public List<Entry> entries() {
        return List.copyOf(entries);
    }

    /** The 8-bit PMA counters that stand at {@link #PMA_8BIT_MAX} now and so can no longer show a flap. */
    public Set<String> saturatedCounters() {
        return Set.copyOf(saturated);
    }

    public boolean isEmpty() {
        return entries.isEmpty() && saturated.isEmpty();
    }

    /** What {@code current}'s link counters say happened since {@code previous}; null when none rose. Pure. */
    public static Entry entry(IbPort previous, IbPort current, long timestampMillis) {
        List<CounterChange> changes = new ArrayList<>(5);
        long carrierDowns = 0;
        Long downs = increase(previous.netdevCounters(), current.netdevCounters(), NetdevCounters.CARRIER_DOWN_COUNT,
                changes, false);
        increase(previous.netdevCounters(), current.netdevCounters(), NetdevCounters.CARRIER_UP_COUNT, changes, false);
        Long carrierChanges = increase(previous.netdevCounters(), current.netdevCounters(),
                NetdevCounters.CARRIER_CHANGES, changes, false);
        if (downs != null) {
            carrierDowns = downs;
        } else if (carrierChanges != null) {
            carrierDowns = (carrierChanges + 1) / 2;
        }
        Long linkDowned = increase(previous.counters(), current.counters(), LINK_DOWNED, changes, true);
        Long recoveries = increase(previous.counters(), current.counters(), LINK_ERROR_RECOVERY, changes, true);
        if (changes.isEmpty()) {
            return null;
        }
        long flaps = Math.max(carrierDowns, linkDowned == null ? 0 : linkDowned) + (recoveries == null ? 0 : recoveries);
        return new Entry(timestampMillis, current.netdev(), flaps, changes);
    }

    /** The increase of {@code counter} (added to {@code changes} when positive); null when it cannot be known. */
    private static Long increase(Map<String, Long> before, Map<String, Long> after, String counter,
                                 List<CounterChange> changes, boolean pma8Bit) {
        Long from = before.get(counter);
        Long to = after.get(counter);
        if (from == null || to == null || to < from) {
            return null; // absent in either sample, or reset: a new baseline
        }
        if (to > from) {
            changes.add(new CounterChange(counter, from, to, pma8Bit && to >= PMA_8BIT_MAX));
        }
        return to - from;
    }
}
