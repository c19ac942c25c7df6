package io.rdmamon.protocol.exposition;

import java.util.Arrays;
import java.util.Map;

/**
 * The deflated runs of node series that the last gzip body held, by the content ids of the node families in each
 * ({@link NodeChunk#identify}), for the next body to reuse ({@link ExpositionAssembler#write(java.io.OutputStream,
 * ExpositionFormat, DeflatedRuns)}). A body keeps the runs it wrote or reused and drops the rest, so the memory is
 * that of one deflated body. Thread-safe: concurrent scrapes each read the last body's runs and the last to finish
 * leaves its own.
 */
public final class DeflatedRuns {
    /** The content ids of a run's node families, in order: equal ids mean equal text. */
    record Key(long[] ids) {
        @Override
        public boolean equals(Object o) {
            return o instanceof Key other && Arrays.equals(ids, other.ids);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(ids);
        }

        @Override
        public String toString() {
            return "Key" + Arrays.toString(ids);
        }
    }

    private volatile Map<Key, ParallelGzipOutputStream.DeflatedRun> last = Map.of();
    private volatile long reusedBytes;
    private volatile long deflatedBytes;

    ParallelGzipOutputStream.DeflatedRun get(Key key) {
        return last.get(key);
    }

    /** The runs of the body just written, and how many text bytes it reused and deflated anew. */
    void replace(Map<Key, ParallelGzipOutputStream.DeflatedRun> runs, long reused, long deflated) {
        last = Map.copyOf(runs);
        reusedBytes = reused;
        deflatedBytes = deflated;
    }

    /** Text bytes of node series the last body took from the body before it, deflated. */
    public long reusedBytes() {
        return reusedBytes;
    }

    /** Text bytes of node series the last body deflated anew. */
    public long deflatedBytes() {
        return deflatedBytes;
    }
}
