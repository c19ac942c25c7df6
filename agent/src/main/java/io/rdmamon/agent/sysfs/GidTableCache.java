package io.rdmamon.agent.sysfs;

import io.rdmamon.protocol.model.GidEntry;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * Keeps each port's GID table between reads for a refresh interval. A real mlx5 port has 255
 * {@code gids/} entries (plus their {@code gid_attrs}), read one small file each: that was most of the
 * agent's per-sample cost (docs/performance.md), while the table changes only when an address or the
 * link changes. A table is re-read when it is older than the interval, when the port's state or link
 * layer differ from the read that produced it, or when that read had problems (so a problem is
 * reported again instead of being hidden behind a cached table).
 */
public final class GidTableCache {
    private record Entry(String portKey, long readAtMillis, List<GidEntry> gids) {
    }

    private final long refreshMillis;
    private final LongSupplier clockMillis;
    private final Map<Path, Entry> tables = new ConcurrentHashMap<>();

    /**
     * @param refresh     the longest time a table is reused
     * @param clockMillis monotonic enough milliseconds (tests pass their own)
     */
    public GidTableCache(Duration refresh, LongSupplier clockMillis) {
        if (refresh.isNegative() || refresh.isZero()) {
            throw new IllegalArgumentException("GID refresh interval must be positive: " + refresh);
        }
        this.refreshMillis = refresh.toMillis();
        this.clockMillis = clockMillis;
    }

    /** What one fresh read of a table gave. */
    public record Read(List<GidEntry> gids, boolean hadProblems) {
    }

    /** A fresh read of one port's table. */
    @FunctionalInterface
    public interface Reader {
        Read read();
    }

    /**
     * The table of the port at {@code portDir}: the cached one while it is fresh and {@code portKey}
     * (state and link layer of this sample) is unchanged, else {@code reader}'s.
     */
    public List<GidEntry> get(Path portDir, String portKey, Reader reader) {
        long now = clockMillis.getAsLong();
        Entry cached = tables.get(portDir);
        if (cached != null && cached.portKey.equals(portKey) && now - cached.readAtMillis < refreshMillis) {
            return cached.gids;
        }
        Read read = reader.read();
        if (read.hadProblems()) {
            tables.remove(portDir);
        } else {
            tables.put(portDir, new Entry(portKey, now, read.gids()));
        }
        return read.gids();
    }
}
