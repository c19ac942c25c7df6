package io.rdmamon.agent.stream;

import io.rdmamon.protocol.model.HostSample;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * Samples not yet acknowledged by the collector, oldest first, at most {@code capacity}. When full,
 * the oldest sample goes and the loss is counted. The last {@code retained} acknowledged samples are kept too,
 * to be sent again after a reconnect: a collector replica that acknowledged them may have died or shut down with
 * them before anyone read them, and the replica the agent reaches next then starts its history without a gap (a
 * collector that still holds them counts them as duplicates).
 */
public final class ReplayBuffer {
    /** A sample with the sequence number it is sent under. */
    public record Entry(long seq, HostSample sample) {
    }

    private final int capacity;
    private final int retained;
    private final ArrayDeque<Entry> entries;
    private final ArrayDeque<Entry> acknowledged = new ArrayDeque<>();
    private long dropped;

    public ReplayBuffer(int capacity) {
        this(capacity, 0);
    }

    public ReplayBuffer(int capacity, int retained) {
        if (capacity <= 0) {
            throw new IllegalArgumentException("replay buffer capacity must be positive: " + capacity);
        }
        if (retained < 0) {
            throw new IllegalArgumentException("retained acknowledged samples must not be negative: " + retained);
        }
        this.capacity = capacity;
        this.retained = retained;
        this.entries = new ArrayDeque<>(Math.min(capacity, 1024));
    }

    public synchronized void add(long seq, HostSample sample) {
        if (entries.size() == capacity) {
            entries.removeFirst();
            dropped++;
        }
        entries.addLast(new Entry(seq, sample));
    }

    /** Every sample up to and including {@code seq} is acknowledged: only the last {@code retained} are kept. */
    public synchronized void acknowledge(long seq) {
        while (!entries.isEmpty() && entries.peekFirst().seq() <= seq) {
            acknowledged.addLast(entries.removeFirst());
            if (acknowledged.size() > retained) {
                acknowledged.removeFirst();
            }
        }
    }

    /** Samples with a sequence number above {@code seq}, the retained acknowledged ones included, oldest first. */
    public synchronized List<Entry> after(long seq) {
        List<Entry> after = new ArrayList<>();
        acknowledged.stream().filter(e -> e.seq() > seq).forEach(after::add);
        entries.stream().filter(e -> e.seq() > seq).forEach(after::add);
        return after;
    }

    /** The sequence number below the oldest sample held (retained or pending), where a reconnect replays from. */
    public synchronized long replayFrom(long acknowledgedSeq) {
        Entry oldest = !acknowledged.isEmpty() ? acknowledged.peekFirst() : entries.peekFirst();
        return oldest == null ? acknowledgedSeq : Math.min(acknowledgedSeq, oldest.seq() - 1);
    }

    /** Samples not acknowledged yet. */
    public synchronized int size() {
        return entries.size();
    }

    /** Samples lost because the buffer was full. */
    public synchronized long dropped() {
        return dropped;
    }
}
