package io.rdmamon.collector.diagnosis;

import io.rdmamon.collector.model.PathVerdict;
import io.rdmamon.collector.model.PortKey;
import io.rdmamon.protocol.model.IbPort;

import java.util.List;
import java.util.Map;

/**
 * What the path rules read of one port: the pingmesh verdicts raised on it ({@link PathVerdicts}) and the last two
 * reads of the other ports those verdicts name as their ends, for the counters of both ends in the evidence.
 *
 * @param port     the port being judged; null in {@link #NONE}
 * @param verdicts the verdicts raised on it
 * @param ends     the other ends' reads, by port; a port this collector does not hold (another replica's, expired)
 *                 is missing
 */
public record PathContext(PortKey port, List<PathVerdict> verdicts, Map<PortKey, Reads> ends) {
    /** No verdict on the port. */
    public static final PathContext NONE = new PathContext(null, List.of(), Map.of());

    public PathContext {
        verdicts = List.copyOf(verdicts);
        ends = Map.copyOf(ends);
    }

    /**
     * Two consecutive reads of a port, for its counter rates.
     *
     * @param previous      the read before; null when the store holds one read only
     * @param current       the latest read
     * @param elapsedMillis between the two samples' timestamps
     */
    public record Reads(IbPort previous, IbPort current, long elapsedMillis) {
    }
}
