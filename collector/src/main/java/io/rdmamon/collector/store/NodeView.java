package io.rdmamon.collector.store;

import io.rdmamon.protocol.model.HostSample;

/**
 * An immutable view of one node at a moment.
 *
 * @param node               node name
 * @param agentVersion       version from the hello
 * @param intervalMillis     the agent's sampling interval
 * @param up                 a sample arrived within the staleness window
 * @param connections        open agent connections reporting as this node
 * @param lastSeenMillis     collector time of the last frame of any kind
 * @param lastSampleMillis   collector time the last sample was received; 0 before any
 * @param lastSample         the newest sample; null before any
 * @param previousSample     the one before it (for per-second rates); null when fewer than two
 * @param issues             what the collector refused of this node's agents
 */
public record NodeView(String node, String agentVersion, long intervalMillis, boolean up, int connections,
                       long lastSeenMillis, long lastSampleMillis, HostSample lastSample, HostSample previousSample,
                       IngestIssues issues) {
    /** A view of a node with nothing refused. */
    public NodeView(String node, String agentVersion, long intervalMillis, boolean up, int connections,
                    long lastSeenMillis, long lastSampleMillis, HostSample lastSample, HostSample previousSample) {
        this(node, agentVersion, intervalMillis, up, connections, lastSeenMillis, lastSampleMillis, lastSample,
                previousSample, IngestIssues.NONE);
    }

    public boolean stale() {
        return !up;
    }
}
