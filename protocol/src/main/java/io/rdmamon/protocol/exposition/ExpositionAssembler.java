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
    /** The bytes of one family from one source. */
    private record Segment(byte[] data, int from, int to) {
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
            add(chunk.families()[i], new Segment(chunk.data(), chunk.offsets()[i], chunk.offsets()[i + 1]));
        }
    }

    /** The lines in {@code bytes} as samples of {@code family}; nothing when empty. */
    public void add(Family family, ExpositionBytes bytes) {
        if (bytes.size() > 0) {
            add(family, new Segment(bytes.array(), 0, bytes.size()));
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
        List<FamilyOutput> ordered = new ArrayList<>(families.values());
        ordered.sort(Comparator.comparing(f -> f.family.name()));
        for (FamilyOutput f : ordered) {
            out.write(f.family.header(format));
            for (Segment s : f.segments) {
                out.write(s.data(), s.from(), s.to() - s.from());
            }
        }
    }
}
