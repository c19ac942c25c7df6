package io.rdmamon.collector.changes;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * The fleet's change log (docs/collector.md "Change log"): every {@link Change} the collector saw, newest first, in
 * bounded memory. Each node keeps at most {@code perNode} entries and the fleet at most {@code fleet}; past either
 * bound the oldest entry goes (of the node, or of the fleet), and {@link #evictions()} counts it. With the defaults
 * a node can hold a day of a port flapping every three minutes, and 2,000 nodes an average of 65 entries each
 * (about 300 bytes an entry: 40 MiB, and up to twice that while entries a node's bound evicted wait for a compaction).
 *
 * <p>Entries are ordered by arrival ({@link Entry#seq}): a node's entries by their samples, nodes interleaved as
 * their samples came in. {@link #record} is the entry point for every source, the collector's own and the agent's
 * kernel log and devlink health. Thread-safe; every call costs at most O(fleet) (a query) or amortised O(1) (a
 * record).
 */
public final class ChangeLog {
    public static final int DEFAULT_PER_NODE = 512;
    public static final int DEFAULT_FLEET = 131_072;
    private static final ChangeKind[] KINDS = ChangeKind.values();

    /** One logged change and its place in the log (ascending with arrival; the live feed resumes after one). */
    public record Entry(long seq, Change change) {
    }

    private static final class Slot {
        final Entry entry;
        boolean evicted;

        Slot(Entry entry) {
            this.entry = entry;
        }
    }

    private final int perNode;
    private final int fleet;
    private final Map<String, ArrayDeque<Slot>> byNode = new HashMap<>();
    /** Every slot in arrival order; a slot a node's bound evicted stays until it reaches the head or a compaction. */
    private final ArrayDeque<Slot> all = new ArrayDeque<>();
    private final Map<String, long[]> counts = new HashMap<>();
    private volatile Consumer<Entry> listener = entry -> { };
    private long seq;
    private int live;
    private long evictions;

    public ChangeLog() {
        this(DEFAULT_PER_NODE, DEFAULT_FLEET);
    }

    public ChangeLog(int perNode, int fleet) {
        if (perNode < 1 || fleet < 1) {
            throw new IllegalArgumentException("bounds must be >= 1, got perNode " + perNode + ", fleet " + fleet);
        }
        this.perNode = perNode;
        this.fleet = fleet;
    }

    /** Who hears of every entry once it is logged (the dashboard's live feed); one at a time, outside the log's lock. */
    public void onRecord(Consumer<Entry> listener) {
        this.listener = listener;
    }

    /**
     * Enters {@code change} as the newest entry, evicting the oldest of its node or of the fleet past a bound. The
     * entry point of every source of changes.
     */
    public Entry record(Change change) {
        Entry entry = insert(change);
        listener.accept(entry);
        return entry;
    }

    private synchronized Entry insert(Change change) {
        Slot slot = new Slot(new Entry(++seq, change));
        ArrayDeque<Slot> node = byNode.computeIfAbsent(change.node(), n -> new ArrayDeque<>());
        node.addLast(slot);
        all.addLast(slot);
        live++;
        counts.computeIfAbsent(change.node(), n -> new long[KINDS.length])[change.kind().ordinal()]++;
        if (node.size() > perNode) {
            node.removeFirst().evicted = true;
            live--;
            evictions++;
        }
        while (live > fleet) {
            Slot oldest = all.removeFirst();
            if (!oldest.evicted) {
                // the fleet's oldest live entry is its node's oldest too: both are in arrival order
                ArrayDeque<Slot> of = byNode.get(oldest.entry.change().node());
                of.removeFirst();
                if (of.isEmpty()) {
                    byNode.remove(oldest.entry.change().node());
                }
                live--;
                evictions++;
            }
        }
        if (all.size() > 2 * fleet) {
            all.removeIf(s -> s.evicted); // one node flooding leaves evicted slots behind others' live ones
        }
        return slot.entry;
    }

    /**
     * At most {@code limit} entries, newest first, of {@code node} (null: every node) that {@code filter} accepts
     * and that arrived after {@code afterSeq} (0: all).
     */
    public synchronized List<Entry> newest(String node, Predicate<Change> filter, long afterSeq, int limit) {
        ArrayDeque<Slot> slots = node == null ? all : byNode.get(node);
        List<Entry> out = new ArrayList<>(Math.min(limit, 64));
        if (slots == null) {
            return out;
        }
        for (Iterator<Slot> it = slots.descendingIterator(); it.hasNext() && out.size() < limit; ) {
            Slot slot = it.next();
            if (slot.entry.seq() <= afterSeq) {
                break;
            }
            if (!slot.evicted && filter.test(slot.entry.change())) {
                out.add(slot.entry);
            }
        }
        return out;
    }

    /** Entries held now. */
    public synchronized int size() {
        return live;
    }

    /** Entries dropped to keep the bounds. */
    public synchronized long evictions() {
        return evictions;
    }

    /** The newest entry's seq; 0 when nothing was ever logged. */
    public synchronized long lastSeq() {
        return seq;
    }

    /** Changes logged per node and kind since the node was first seen (or its counts {@link #forgetCounts forgotten}). */
    public synchronized Map<String, Map<ChangeKind, Long>> counts() {
        Map<String, Map<ChangeKind, Long>> out = new HashMap<>(counts.size() * 2);
        counts.forEach((node, perKind) -> {
            Map<ChangeKind, Long> kinds = new HashMap<>();
            for (ChangeKind kind : KINDS) {
                if (perKind[kind.ordinal()] > 0) {
                    kinds.put(kind, perKind[kind.ordinal()]);
                }
            }
            out.put(node, kinds);
        });
        return out;
    }

    /** The node expired: its counters leave /metrics; its entries stay in the log (what happened still did). */
    public synchronized void forgetCounts(String node) {
        counts.remove(node);
    }
}
