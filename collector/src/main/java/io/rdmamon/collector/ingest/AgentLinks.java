package io.rdmamon.collector.ingest;

import io.rdmamon.protocol.wire.Frame;

import java.util.Optional;

/** What the probe side asks of the agents of nodes: the agents this collector holds, or in a cluster any replica's. */
public interface AgentLinks {
    boolean connected(String node);

    /** Whether {@code node}'s connected agent announced {@code capability} in its hello. */
    boolean accepts(String node, String capability);

    /** Sends {@code frame} to the agent of {@code node}; false when it is known not to be connected. */
    boolean send(String node, Frame frame);

    /** The IP address {@code node}'s agent connects from. */
    Optional<String> remoteHost(String node);
}
