package io.rdmamon.collector.ingest;

import io.rdmamon.protocol.wire.FrameException;

/**
 * Why the collector closes an agent stream: the WebSocket close code, the reason it sends (and logs), and the
 * {@code reason} label of {@code rdmamon_collector_agent_streams_closed_total}. The reason is bounded and
 * printable like a {@link FrameException}'s, whatever wire text it quotes.
 */
final class StreamRefusal extends Exception {
    static final short GOING_AWAY = 1001;
    static final short PROTOCOL_ERROR = 1002;
    static final short POLICY_VIOLATION = 1008;
    static final short MESSAGE_TOO_BIG = 1009;
    static final short TRY_AGAIN_LATER = 1013;
    /** RFC 6455 registry "Service Restart": this replica shuts down, the agent moves to the next collector URL at once. */
    static final short SERVICE_RESTART = 1012;
    /** Another replica of the cluster took the node over (its agent reconnected there): this connection is stale. */
    static final short NODE_MOVED = 4010;

    /** A frame the codec or the decoder refused (malformed, out of order, not fitting the layout). */
    static final String BAD_FRAME = "bad_frame";
    /** A string from the wire that is not printable or too long. */
    static final String INVALID_TEXT = "invalid_text";
    /** A hello or layout beyond an {@code ingest.*} limit. */
    static final String LIMIT = "limit";
    /** A message beyond {@code maxFrameBytes}. */
    static final String OVERSIZED = "oversized";
    /** A hello for a node name a live connection holds. */
    static final String NAME_CONFLICT = "name_conflict";
    /** A hello for another node than the token is bound to. */
    static final String TOKEN_NODE = "token_node";
    /** A hello for a new node while the store holds {@code maxNodes}. */
    static final String NODE_LIMIT = "node_limit";
    /** A hello (or layout change) whose node the heap cannot take ({@link io.rdmamon.collector.store.NodeCost}). */
    static final String HEAP = "heap";
    /** No frame for {@code ingest.idleTimeout}. */
    static final String IDLE = "idle";
    /** A hello while too many others wait to be admitted ({@link HelloAdmission}): come back later. */
    static final String BUSY = "busy";
    /** Closed by the collector: the replica shuts down (SIGTERM), or another replica took the node. */
    static final String SHUTDOWN = "shutdown";
    static final String MOVED = "moved";

    private final short code;
    private final String kind;

    StreamRefusal(short code, String kind, String reason) {
        super(new FrameException(reason).getMessage());
        this.code = code;
        this.kind = kind;
    }

    /** A frame the protocol layer refused: close 1002. */
    static StreamRefusal badFrame(FrameException e) {
        return new StreamRefusal(PROTOCOL_ERROR, BAD_FRAME, e.getMessage());
    }

    short code() {
        return code;
    }

    String kind() {
        return kind;
    }
}
