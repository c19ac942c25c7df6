package io.rdmamon.collector.ingest;

import io.rdmamon.protocol.wire.Frame;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * The open agent connections by node, so that the probe orchestrator can talk to the agent of a node.
 * Confined to the collector verticle's event loop (connections and REST handlers both run there).
 * A node has at most one connection here: the live connection keeps the name, a second hello for it is refused
 * ({@link AgentConnection}), so that a closing impersonator can never unregister the real agent.
 */
public final class AgentRegistry implements AgentLinks {
    /** What the probe side hears from agents. */
    public interface Listener {
        /** A {@code probe-report} frame arrived from {@code node}'s agent. */
        void probeReport(String node, Frame.ProbeReport report);

        /** The addressed connection of {@code node} closed. */
        void disconnected(String node);
    }

    private static final Listener NONE = new Listener() {
        @Override
        public void probeReport(String node, Frame.ProbeReport report) {
        }

        @Override
        public void disconnected(String node) {
        }
    };

    static final String SHUTDOWN_REASON = "replica shutting down; connect to another";

    private final Map<String, AgentConnection> connections = new HashMap<>();
    private Listener listener = NONE;
    private boolean shuttingDown;

    public void listener(Listener value) {
        listener = value;
    }

    @Override
    public boolean connected(String node) {
        return connections.containsKey(node);
    }

    /** Whether {@code node}'s connected agent announced {@code capability} in its hello ({@link Frame.Hello#capabilities()}). */
    @Override
    public boolean accepts(String node, String capability) {
        AgentConnection connection = connections.get(node);
        return connection != null && connection.accepts(capability);
    }

    /** Sends {@code frame} to the agent of {@code node}; false when no agent of that node is connected. */
    @Override
    public boolean send(String node, Frame frame) {
        AgentConnection connection = connections.get(node);
        if (connection == null) {
            return false;
        }
        connection.send(frame);
        return true;
    }

    /** The IP address {@code node}'s agent connects from (its node address on InfiniBand and eRDMA). */
    @Override
    public Optional<String> remoteHost(String node) {
        return Optional.ofNullable(connections.get(node)).map(AgentConnection::remoteHost);
    }

    /**
     * Closes every agent stream with 1012 (Service Restart), and refuses every hello from now on the same way: this
     * replica shuts down, and each agent moves to its next collector URL at once, replaying what this one did not
     * acknowledge. The answer is the nodes whose streams were closed.
     */
    public Set<String> closeAllForShutdown() {
        shuttingDown = true;
        Set<String> closed = new TreeSet<>(connections.keySet());
        for (AgentConnection connection : List.copyOf(connections.values())) {
            connection.close(StreamRefusal.SERVICE_RESTART, SHUTDOWN_REASON);
        }
        return closed;
    }

    /** Whether {@link #closeAllForShutdown} ran: a hello is then refused with 1012 like the streams it closed. */
    boolean shuttingDown() {
        return shuttingDown;
    }

    /**
     * Another replica took {@code node} over for agent run {@code instance}: closes this replica's connection of that
     * run (4010, a half-open one left behind); false when another run holds it here (left alone).
     */
    public boolean moved(String node, String instance) {
        AgentConnection connection = connections.get(node);
        if (connection == null) {
            return true;
        }
        if (instance != null && !instance.equals(connection.instance())) {
            return false;
        }
        connection.close(StreamRefusal.NODE_MOVED, "node moved to another replica");
        return true;
    }

    public int size() {
        return connections.size();
    }

    /** The live connection holding {@code node}; null when none does. */
    AgentConnection holder(String node) {
        return connections.get(node);
    }

    void attach(String node, AgentConnection connection) {
        AgentConnection held = connections.putIfAbsent(node, connection);
        if (held != null && held != connection) {
            throw new IllegalStateException(node + " is held by another connection");
        }
    }

    void detach(String node, AgentConnection connection) {
        if (connections.remove(node, connection)) {
            listener.disconnected(node);
        }
    }

    void probeReport(String node, Frame.ProbeReport report) {
        listener.probeReport(node, report);
    }
}
