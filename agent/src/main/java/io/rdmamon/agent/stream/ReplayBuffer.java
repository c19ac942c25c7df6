package io.rdmamon.agent.stream;

import io.rdmamon.protocol.model.HostSample;

import java.util.ArrayDeque;
import java.util.List;

/**
 * Samples not yet acknowledged by the collector, oldest first, at most {@code capacity}. When full,
 * the oldest sample goes and the loss is counted.
 */
public final class ReplayBuffer {
    /** A sample with the sequence number it is sent under. */
    public record Entry(long seq, HostSample sample) {
    }

    private final int capacity;
    private final ArrayDeque<Entry> entries;
    private long dropped;

    public ReplayBuffer(int capacity) {
        if (capacity <= 0) {
            throw new IllegalArgumentException("replay buffer capacity must be positive: " + capacity);
        }
        this.capacity = capacity;
        this.entries = new ArrayDeque<>(Math.min(capacity, 1024));
    }

    public synchronized void add(long seq, HostSample sample) {
        if (entries.size() == capacity) {
            entries.removeFirst();
            dropped++;
        }
        entries.addLast(new Entry(seq, sample));
    }

    /** Forgets every sample up to and including {@code seq}. */
    public synchronized void acknowledge(long seq) {
        while (!entries.isEmpty() && entries.peekFirst().seq() <= seq) {
            entries.removeFirst();
        }
    }

    /** Samples with a sequence number above {@code seq}, oldest first. */
    public synchronized List<Entry> after(long seq) {
        return entries.stream().filter(e -> e.seq() > seq).toList();
    }

    public synchronized int size() {
        return entries.size();
    }

    /** Samples lost because the buffer was full. */
    public synchronized long dropped() {
        return dropped;
    }
}
