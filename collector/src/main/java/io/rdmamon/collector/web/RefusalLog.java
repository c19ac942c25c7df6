package io.rdmamon.collector.web;

import io.vertx.core.Vertx;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

/**
 * Throttles the log lines of refused requests so that a flood of refusals (a viewer retrying a probe start,
 * an agent with a stale token, a scanner) costs a few lines instead of one per request. Per (reason, peer)
 * the first refusal is written in full at once; the ones after it within {@code window} are only counted,
 * and when the window ends one summary line says how many there were. Counting every refusal is the
 * caller's self metric; this class only decides which ones are written.
 *
 * <p>At most {@code maxKeys} (reason, peer) pairs are followed at once: refusals of further pairs are folded
 * into one pair per reason whose peer is {@link #OTHER_PEERS}, so that a flood from many addresses cannot
 * grow the map. Thread-safe; the summaries are written from a Vert.x timer.
 */
public final class RefusalLog {
    /** The peer of the pair that collects refusals beyond {@code maxKeys}. */
    public static final String OTHER_PEERS = "other peers";

    /** Writes a summary: {@code count} more refusals of {@code reason} from {@code peer} in the last {@code window}. */
    @FunctionalInterface
    public interface Summaries {
        void write(String reason, String peer, long count, Duration window);
    }

    private record Key(String reason, String peer) {
    }

    private final Vertx vertx;
    private final Duration window;
    private final int maxKeys;
    private final Summaries summaries;
    /** Open windows: the refusals counted (not written) so far in each. */
    private final Map<Key, Long> suppressed = new HashMap<>();

    public RefusalLog(Vertx vertx, Duration window, int maxKeys, Summaries summaries) {
        if (window.isNegative() || window.isZero() || maxKeys < 1) {
            throw new IllegalArgumentException("refusal log window and key count must be positive");
        }
        this.vertx = vertx;
        this.window = window;
        this.maxKeys = maxKeys;
        this.summaries = summaries;
    }

    /**
     * Records one refusal; true when the caller should write it in full now (the first of its pair in a
     * window), false when it was counted for the window's summary line.
     */
    public synchronized boolean admit(String reason, String peer) {
        Key key = new Key(reason, peer == null ? "unknown" : peer);
        if (!suppressed.containsKey(key) && suppressed.size() >= maxKeys) {
            key = new Key(reason, OTHER_PEERS);
        }
        Long count = suppressed.get(key);
        if (count != null) {
            suppressed.put(key, count + 1);
            return false;
        }
        suppressed.put(key, 0L);
        Key opened = key;
        vertx.setTimer(window.toMillis(), id -> close(opened));
        return true;
    }

    public Duration window() {
        return window;
    }

    private void close(Key key) {
        Long count;
        synchronized (this) {
            count = suppressed.remove(key);
        }
        if (count != null && count > 0) {
            summaries.write(key.reason(), key.peer(), count, window);
        }
    }
}
