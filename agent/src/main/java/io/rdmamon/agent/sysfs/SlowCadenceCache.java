package io.rdmamon.agent.sysfs;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * Keeps what changes rarely between reads for a refresh interval: each port's GID table, the port's
 * {@code rate} and {@code link_layer}, the device's identity ({@code fw_ver}, {@code board_id},
 * {@code node_guid}, {@code hca_type}, ...) and its netdev mapping. A real mlx5 port has 255 {@code gids/}
 * entries (plus their {@code gid_attrs}), read one small file each: that was most of the agent's
 * per-sample cost (docs/performance.md), while the table changes only when an address or the link
 * changes. A value is read again when it is older than the interval, when its change key (the port
 * states and link layers of this sample) differs from the read that produced it, or when that read had
 * problems (so a problem is reported again instead of being hidden behind a cached value).
 */
public final class SlowCadenceCache {
    private record Entry(String changeKey, long readAtMillis, Object value) {
    }

    private final long refreshMillis;
    private final LongSupplier clockMillis;
    private final Map<Path, Entry> values = new ConcurrentHashMap<>();

    /**
     * @param refresh     the longest time a value is reused
     * @param clockMillis monotonic enough milliseconds (tests pass their own)
     */
    public SlowCadenceCache(Duration refresh, LongSupplier clockMillis) {
        if (refresh.isNegative() || refresh.isZero()) {
            throw new IllegalArgumentException("GID refresh interval must be positive: " + refresh);
        }
        this.refreshMillis = refresh.toMillis();
        this.clockMillis = clockMillis;
    }

    /** What one fresh read gave. */
    public record Read<T>(T value, boolean hadProblems) {
    }

    /** A fresh read of one value. */
    @FunctionalInterface
    public interface Reader<T> {
        Read<T> read();
    }

    /**
     * The value kept under {@code slot} (a directory: one kind of value per directory) while it is fresh
     * and {@code changeKey} is unchanged, else {@code reader}'s.
     */
    @SuppressWarnings("unchecked") // a slot only ever holds what its one reader returns
    public <T> T get(Path slot, String changeKey, Reader<T> reader) {
        long now = clockMillis.getAsLong();
        Entry cached = values.get(slot);
        if (cached != null && cached.changeKey.equals(changeKey) && now - cached.readAtMillis < refreshMillis) {
            return (T) cached.value;
        }
        Read<T> read = reader.read();
        if (read.hadProblems()) {
            values.remove(slot);
        } else {
            values.put(slot, new Entry(changeKey, now, read.value()));
        }
        return read.value();
    }
}
