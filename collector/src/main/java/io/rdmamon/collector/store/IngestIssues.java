package io.rdmamon.collector.store;

import java.util.Map;

/**
 * What the collector refused of one node's agents since the node was registered.
 *
 * @param refusedSamples     samples refused by reason ({@link NodeStore#REFUSED_AHEAD_OF_CLOCK}); acknowledged, not stored
 * @param nameConflicts      hellos for this node refused because a live connection held the name
 * @param lastConflictMillis collector time of the last such refusal; 0 before any
 * @param lastConflict       which connections met (addresses) at the last one; null before any
 */
public record IngestIssues(Map<String, Long> refusedSamples, long nameConflicts, long lastConflictMillis,
                           String lastConflict) {
    public static final IngestIssues NONE = new IngestIssues(Map.of(), 0, 0, null);

    public IngestIssues {
        refusedSamples = Map.copyOf(refusedSamples);
    }
}
