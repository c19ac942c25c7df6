package io.rdmamon.protocol.exposition;

import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Gathers the bytes of each family from several sources (nodes' {@link NodeChunk}s, lines rendered at scrape
 * time) and writes the families in name order, each with its header once and its samples contiguous, as the
 * exposition formats require. A source whose family name is already taken by a family of another type is
 * dropped (only possible for odd counter file names): a name is one type. Not thread-safe: one per scrape.
 */
public final class ExpositionAssembler {
    /**
     * The text of a node run is aimed at this many bytes: large enough to deflate well on its own, small enough that
     * a family where a few nodes changed still reuses most of its runs.
     */
    static final int RUN_BYTES = 128 * 1024;

    /** The bytes of one family from one source, and their content id (0: none, never reused). */
    private record Segment(byte[] data, int from, int to, long contentId) {
        int length() {
            return to - from;
        }
    }

    private static final class FamilyOutput {
        final Family family;
        final List<Segment> segments = new ArrayList<>();

        FamilyOutput(Family family) {
            this.family = family;
        }
    }

    private final Map<String, FamilyOutput> families = new HashMap<>();
    private final MetricSelection selection;

    /** Every family added ({@link MetricSelection#FULL}). */
    public ExpositionAssembler() {
        this(MetricSelection.FULL);
    }

    /** Only the families {@code selection} includes; the bytes of the others are dropped. */
    public ExpositionAssembler(MetricSelection selection) {
        this.selection = selection;
    }

    /** Every family of one node's rendered sample. */
    public void add(NodeChunk chunk) {
        for (int i = 0; i < chunk.families().length; i++) {
            add(chunk.families()[i], new Segment(chunk.data(), chunk.offsets()[i], chunk.offsets()[i + 1],
                    chunk.contentIds() == null ? 0 : chunk.contentIds()[i]));
        }
    }

    /** The lines in {@code bytes} as samples of {@code family}; nothing when empty. */
    public void add(Family family, ExpositionBytes bytes) {
        if (bytes.size() > 0) {
            add(family, new Segment(bytes.array(), 0, bytes.size(), 0));
        }
    }

    private void add(Family family, Segment segment) {
        if (!selection.includes(family)) {
            return;
        }
        FamilyOutput output = families.computeIfAbsent(family.name(), n -> new FamilyOutput(family));
        if (output.family.type() == family.type()) {
            output.segments.add(segment);
        }
    }

    /** Every family gathered, ordered by name, each header in {@code format}; blocking, like {@code out}. */
    public void write(OutputStream out, ExpositionFormat format) throws IOException {
        for (FamilyOutput f : ordered()) {
            out.write(f.family.header(format));
            for (Segment s : f.segments) {
                out.write(s.data(), s.from(), s.length());
            }
        }
    }

    /**
     * As {@link #write(OutputStream, ExpositionFormat)}; when {@code out} is a {@link ParallelGzipOutputStream}, the
     * identified node segments of each family go in runs of consecutive nodes (a stable count per family, about
     * {@value #RUN_BYTES} bytes), each deflated on its own, and a run whose nodes' content ids are those of a run of
     * the last body ({@code runs}) is written from that body's deflated bytes instead of deflated again. The text is
     * the same either way.
     */
    public void write(OutputStream out, ExpositionFormat format, DeflatedRuns runs) throws IOException {
        if (!(out instanceof ParallelGzipOutputStream gzip)) {
            write(out, format);
            return;
        }
        Map<DeflatedRuns.Key, ParallelGzipOutputStream.DeflatedRun> kept = new HashMap<>();
        long reused = 0;
        long deflated = 0;
        for (FamilyOutput f : ordered()) {
            gzip.write(f.family.header(format));
            List<Segment> segments = f.segments;
            int perRun = nodesPerRun(segments);
            int i = 0;
            while (i < segments.size()) {
                if (segments.get(i).contentId() == 0) {
                    Segment s = segments.get(i++);
                    gzip.write(s.data(), s.from(), s.length());
                    continue;
                }
                int end = i;
                while (end < segments.size() && end - i < perRun && segments.get(end).contentId() != 0) {
                    end++;
                }
                long[] ids = new long[end - i];
                for (int k = i; k < end; k++) {
                    ids[k - i] = segments.get(k).contentId();
                }
                DeflatedRuns.Key key = new DeflatedRuns.Key(ids);
                ParallelGzipOutputStream.DeflatedRun run = runs.get(key);
                if (run != null && gzip.writeRun(run)) {
                    reused += run.length();
                } else {
                    gzip.beginRun();
                    for (int k = i; k < end; k++) {
                        Segment s = segments.get(k);
                        gzip.write(s.data(), s.from(), s.length());
                    }
                    run = gzip.endRun();
                    deflated += run.length();
                }
                kept.put(key, run);
                i = end;
            }
        }
        runs.replace(kept, reused, deflated);
    }

    /**
     * Nodes per run for a family: a power of two near {@value #RUN_BYTES} over the family's mean bytes per node, so
     * that the count, and with it the runs' bounds, stays put while the nodes' text lengths move a little.
     */
    private static int nodesPerRun(List<Segment> segments) {
        long bytes = 0;
        for (Segment s : segments) {
            bytes += s.length();
        }
        long perNode = Math.max(1, bytes / Math.max(1, segments.size()));
        return Integer.highestOneBit((int) Math.max(1, Math.min(1 << 20, RUN_BYTES / perNode)));
    }

    private List<FamilyOutput> ordered() {
        List<FamilyOutput> ordered = new ArrayList<>(families.values());
        ordered.sort(Comparator.comparing(f -> f.family.name()));
        return ordered;
    }
}
