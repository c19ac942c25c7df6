package io.rdmamon.collector.ingest;

import io.rdmamon.protocol.wire.Frame;
import io.vertx.core.Future;

import java.util.Optional;

/**
 * Where an agent's hello claims its node beyond this replica, and gives it up when the stream ends: the cluster-wide
 * node directory ({@code cluster.NodeClaims}). Ingest asks through this interface, so that it needs nothing of the
 * cluster above it.
 */
public interface HelloClaims {
    /**
     * Claims the hello's node for this replica. Succeeds empty when the node is this replica's now, and with who holds
     * it (e.g. {@code replica r2 (agent connected from 10.0.0.7)}) when another replica holds a live connection of
     * another agent run with the name; fails when the directory cannot answer.
     */
    Future<Optional<String>> claim(Frame.Hello hello, String remoteHost);

    /**
     * The first sample of {@code node}'s stream (agent run {@code instance}) is stored here: a replica the node moved
     * from may drop it now, for this one exports it (until then a scrape finds it there, not nowhere).
     */
    void firstSampleStored(String node, String instance);

    /** The stream of {@code node} (agent run {@code instance}) on this replica ended. */
    void disconnected(String node, String instance);
}
