package io.rdmamon.protocol.exposition;

import io.rdmamon.protocol.model.HostSample;

import java.util.Arrays;
import java.util.function.LongSupplier;

/**
 * The series of one node's sample, rendered once and kept until the node's next sample: the bytes of
 * family {@code families[i]} are {@code data[offsets[i] .. offsets[i + 1])}.
 *
 * @param sample     the sample rendered (compared by identity: samples are immutable and replaced, never changed)
 * @param data       the sample lines of every family, family after family
 * @param families   the families present, in the order of their bytes
 * @param offsets    start of each family's bytes, plus the end
 * @param contentIds per family, an id that stays the same while the family's bytes for this node do ({@link #identify});
 *                   null when not identified
 */
public record NodeChunk(HostSample sample, byte[] data, Family[] families, int[] offsets, long[] contentIds) {
    /** A chunk whose families are not identified. */
    public NodeChunk(HostSample sample, byte[] data, Family[] families, int[] offsets) {
        this(sample, data, families, offsets, null);
    }

    /**
     * This chunk with a content id per family: the id of the same family in {@code previous} (the node's chunk before,
     * or null) when its bytes are the same, a new one from {@code newIds} otherwise. Between two samples most of a
     * node's families (configuration, thresholds, error counters that stay 0) render to the same bytes, and a scrape
     * can then reuse their deflated bytes (ParallelGzipOutputStream's runs).
     */
    public NodeChunk identify(NodeChunk previous, LongSupplier newIds) {
        long[] ids = new long[families.length];
        for (int i = 0; i < families.length; i++) {
            int j = previous == null || previous.contentIds == null ? -1 : previous.indexOf(families[i], i);
            ids[i] = j >= 0 && Arrays.equals(data, offsets[i], offsets[i + 1],
                    previous.data, previous.offsets[j], previous.offsets[j + 1]) ? previous.contentIds[j]
                    : newIds.getAsLong();
        }
        return new NodeChunk(sample, data, families, offsets, ids);
    }

    /** The index of {@code family} here, trying {@code hint} first (two samples of a node mostly have the same families). */
    private int indexOf(Family family, int hint) {
        if (hint < families.length && same(families[hint], family)) {
            return hint;
        }
        for (int i = 0; i < families.length; i++) {
            if (same(families[i], family)) {
                return i;
            }
        }
        return -1;
    }

    /** By name and type: families of counter files are made per render, so not by identity. */
    private static boolean same(Family a, Family b) {
        return a.name().equals(b.name()) && a.type() == b.type();
    }
}
