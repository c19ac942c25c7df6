package io.rdmamon.collector.ingest;

import io.rdmamon.collector.auth.TokenEntry;
import io.rdmamon.collector.fabric.FabricWorker;
import io.rdmamon.collector.store.NodeCost;
import io.rdmamon.collector.store.NodeStore;
import io.rdmamon.protocol.model.HostSample;
import io.rdmamon.protocol.model.KernelEvents;
import io.rdmamon.protocol.model.NicHealthReporter;
import io.rdmamon.protocol.model.Names;
import io.rdmamon.protocol.text.WireText;
import io.rdmamon.protocol.wire.Frame;
import io.rdmamon.protocol.wire.FrameCodec;
import io.rdmamon.protocol.wire.FrameException;
import io.rdmamon.protocol.wire.SampleDecoder;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.ServerWebSocket;
import io.vertx.core.http.WebSocketFrame;

import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;

/**
 * One agent's stream. A frame is decoded (JSON, the {@link FrameLimits} check and the rebuild of the sample) on
 * the connection's decode loop ({@link DecodeLoops}) and applied on the event loop of the collector verticle,
 * where the connection lives and everything with state runs (store, diagnosis, agent registry, acks); both steps
 * keep the frames' order. The first message, the hello with the layout, is decoded on a worker instead, paced by
 * {@link HelloAdmission}, and the connection reads nothing more until it is applied. A bad frame closes this connection only (with a {@link StreamRefusal}'s code and
 * reason), never the server.
 *
 * <p>WebSocket messages are assembled here from their frames rather than by Vert.x, whose limit drops a larger
 * message silently: a message beyond {@code maxFrameBytes} closes the stream (1009) as soon as it gets there,
 * without buffering the rest. A stream silent for {@code ingest.idleTimeout} is closed, so that a half-open
 * connection does not hold its node's name. A node name belongs to one live connection at a time: the first.
 */
final class AgentConnection {
    private static final System.Logger LOG = System.getLogger(AgentConnection.class.getName());
    private static final int MAX_FRAMES_IN_FLIGHT = AgentIngest.MAX_FRAMES_IN_FLIGHT;
    /** A close reason must fit in 123 bytes of UTF-8 (RFC 6455, 5.5.1). */
    private static final int MAX_CLOSE_REASON_BYTES = 123;
    /** Refused samples of one connection are logged at most once per this long. */
    private static final long REFUSAL_LOG_NANOS = Duration.ofMinutes(1).toNanos();

    /** What the decode loop made of a frame: the frame and its sample, or the reason to refuse it. */
    private record Decoded(Frame frame, HostSample sample, StreamRefusal refusal) {
    }

    private final ServerWebSocket ws;
    private final TokenEntry token;
    private final FrameCodec codec;
    private final FrameLimits limits;
    private final Duration idleTimeout;
    private final NodeStore store;
    private final SelfMetrics metrics;
    private final AgentRegistry agents;
    private final Consumer<HostSample> applied;
    private final Context decodeLoop;
    private final HelloAdmission admission;
    private final HelloClaims claims;
    private final FabricWorker fabrics;
    /** Touched by one decode at a time: the first on a worker, the later ones on the decode loop. */
    private final SampleDecoder decoder = new SampleDecoder();
    private Context home;
    private Frame.Hello hello;
    /** What the node's layout is estimated to cost the heap ({@link NodeStore#connect(String, String, long, NodeCost)}). */
    private NodeCost cost;
    private String node;
    /** Whether this connection holds {@link #node} in the store and the registry. */
    private boolean registered;
    /** Whether a sample of this stream is in the store ({@link HelloClaims#firstSampleStored}, told once). */
    private boolean sampleStored;
    private boolean closing;
    private boolean closed;
    /** Whether the first message (the hello) arrived; it goes through {@link #admission}. */
    private boolean helloReceived;
    /** The hello waits for or is in {@link #admission}: the collector, not the peer, is the one not reading. */
    private boolean admitting;
    private int inFlight;
    /** The binary message being assembled from its frames; null between messages. */
    private Buffer partial;
    /** Bytes of the first message (the hello) held in {@link #admission} while it arrives. */
    private long receiving;
    private long lastFrameNanos;
    /** The kernel events the agent last reported on this connection ({@code kernel-events}); null before any. */
    private KernelEvents kernel;
    /** The devlink health reporters the agent last reported on this connection ({@code devlink-health}); null before. */
    private List<NicHealthReporter> health;
    private long idleTimer;
    private long refusedSinceLog;
    private long lastRefusalLogNanos;

    AgentConnection(ServerWebSocket ws, TokenEntry token, FrameCodec codec, FrameLimits limits, Duration idleTimeout,
                    NodeStore store, SelfMetrics metrics, AgentRegistry agents, Consumer<HostSample> applied,
                    Context decodeLoop, HelloAdmission admission, HelloClaims claims, FabricWorker fabrics) {
        this.ws = ws;
        this.fabrics = fabrics;
        this.claims = claims;
        this.admission = admission;
        this.limits = limits;
        this.idleTimeout = idleTimeout;
        this.decodeLoop = decodeLoop;
        this.agents = agents;
        this.applied = applied;
        this.token = token;
        this.codec = codec;
        this.store = store;
        this.metrics = metrics;
    }

    /** Called on the collector verticle's event loop. */
    void start() {
        home = Vertx.currentContext();
        lastFrameNanos = System.nanoTime();
        ws.frameHandler(this::onWebSocketFrame);
        ws.exceptionHandler(e -> LOG.log(System.Logger.Level.DEBUG, "agent stream from {0}: {1}", peer(), e.toString()));
        ws.closeHandler(v -> {
            closed = true; // frames still being decoded are dropped when they come back
            release();
        });
        long check = Math.max(1000, idleTimeout.toMillis() / 4);
        idleTimer = home.owner().setPeriodic(check, check, id -> closeIfIdle());
    }

    private void onWebSocketFrame(WebSocketFrame frame) {
        if (closing) {
            return;
        }
        lastFrameNanos = System.nanoTime(); // any frame, a ping too, shows the peer is there
        if (frame.isText()) {
            reject(new StreamRefusal(StreamRefusal.PROTOCOL_ERROR, StreamRefusal.BAD_FRAME,
                    "text messages are not part of the protocol; frames are binary"));
            return;
        }
        if (frame.isBinary()) {
            partial = Buffer.buffer();
        } else if (!frame.isContinuation()) {
            return; // ping, pong, close: Vert.x answers them
        } else if (partial == null) {
            reject(new StreamRefusal(StreamRefusal.PROTOCOL_ERROR, StreamRefusal.BAD_FRAME,
                    "continuation frame outside a binary message"));
            return;
        }
        Buffer data = frame.binaryData();
        if ((long) partial.length() + data.length() > codec.maxFrameBytes()) {
            partial = null;
            metrics.framesRejected.inc();
            reject(new StreamRefusal(StreamRefusal.MESSAGE_TOO_BIG, StreamRefusal.OVERSIZED,
                    "message exceeds the limit of " + codec.maxFrameBytes() + " bytes (maxFrameBytes)"));
            return;
        }
        if (!helloReceived) {
            if (!admission.receive(data.length())) {
                partial = null;
                reject(admission.busyReceiving());
                return;
            }
            receiving += data.length();
        }
        partial.appendBuffer(data);
        if (frame.isFinal()) {
            byte[] message = partial.getBytes();
            partial = null;
            releaseReceiving();
            onMessage(message);
        }
    }

    private void onMessage(byte[] bytes) {
        metrics.framesReceived.inc();
        if (!helloReceived) {
            helloReceived = true;
            admit(bytes);
            return;
        }
        holdInFlight();
        decodeLoop.runOnContext(v -> {
            Decoded decoded = decode(bytes);
            home.runOnContext(w -> {
                releaseInFlight();
                apply(decoded);
            });
        });
    }

    /** A frame is in flight (being decoded or applied): the socket reads no more while {@link #MAX_FRAMES_IN_FLIGHT} are. */
    private void holdInFlight() {
        if (++inFlight == MAX_FRAMES_IN_FLIGHT) {
            ws.pause();
        }
    }

    private void releaseInFlight() {
        if (inFlight-- == MAX_FRAMES_IN_FLIGHT) {
            ws.resume();
        }
    }

    /**
     * The first message, on a worker when {@link #admission} has a slot for it. The socket reads nothing meanwhile,
     * so no later frame overtakes it and the decoder is never used by two threads at once (each hand-off between
     * the worker, this loop and the decode loop orders its memory effects).
     */
    private void admit(byte[] bytes) {
        ws.pause();
        admitting = true;
        admission.submit(bytes.length, () -> decode(bytes)).onComplete(done -> {
            admitting = false;
            lastFrameNanos = System.nanoTime(); // the idle clock stood still while the hello waited
            if (done.failed()) {
                reject(done.cause() instanceof StreamRefusal refusal ? refusal
                        : new StreamRefusal(StreamRefusal.TRY_AGAIN_LATER, StreamRefusal.BUSY,
                        "hello not decoded: " + done.cause()));
                return;
            }
            Decoded decoded = done.result();
            if (decoded.refusal() == null && decoded.frame() instanceof Frame.Hello first) {
                claimThenRegister(first);
                return;
            }
            apply(decoded);
            if (!closing) {
                ws.resume();
            }
        });
    }

    /**
     * The hello's checks here, then its node's claim in the cluster-wide directory (the socket still paused), then
     * the node's registration. A name another replica holds with a live connection of another agent run is refused
     * like a local one; an agent run reconnecting here from another replica takes the node over.
     */
    private void claimThenRegister(Frame.Hello first) {
        try {
            checkHello(first);
        } catch (StreamRefusal e) {
            reject(e);
            return;
        }
        claims.claim(first, remoteHost()).onComplete(claimed -> {
            lastFrameNanos = System.nanoTime();
            boolean ours = claimed.succeeded() && claimed.result().isEmpty();
            if (closing || closed) {
                if (ours) {
                    claims.disconnected(first.node(), first.instance());
                }
                return;
            }
            try {
                if (claimed.failed()) {
                    throw new StreamRefusal(StreamRefusal.TRY_AGAIN_LATER, StreamRefusal.BUSY,
                            "node directory unavailable: " + claimed.cause().getMessage());
                }
                if (!ours) {
                    String detail = "hello from " + peer() + " refused: " + claimed.result().get() + " holds the name";
                    throw conflict(first.node(), detail);
                }
                register(first);
            } catch (StreamRefusal e) {
                if (ours) {
                    claims.disconnected(first.node(), first.instance());
                }
                reject(e);
                return;
            }
            ws.resume();
        });
    }

    /** On the decode loop, or for the first message on a worker. */
    private Decoded decode(byte[] bytes) {
        try {
            Frame frame = codec.decode(bytes);
            limits.check(frame); // before the decoder plans a layout or rebuilds a sample from it
            return new Decoded(frame, decoder.accept(frame).orElse(null), null);
        } catch (FrameException e) {
            return new Decoded(null, null, StreamRefusal.badFrame(e));
        } catch (StreamRefusal e) {
            return new Decoded(null, null, e);
        } catch (RuntimeException e) {
            // a defect, not a bad frame: drop the frame, as an exception on the event loop would, but come
            // back to the verticle's loop all the same so that the connection's flow control stays right
            LOG.log(System.Logger.Level.ERROR, "cannot decode a frame from " + peer(), e);
            return new Decoded(null, null, null);
        }
    }

    /** On the collector verticle's event loop, in the order the frames arrived. */
    private void apply(Decoded decoded) {
        if (closing || closed) {
            return;
        }
        try {
            if (decoded.refusal() != null) {
                metrics.framesRejected.inc();
                throw decoded.refusal();
            }
            Frame frame = decoded.frame();
            if (frame == null) {
                return;
            }
            if (frame instanceof Frame.Hello h) {
                admit(h);
            } else if (frame instanceof Frame.LayoutChange change) {
                relayout(change);
            } else if (frame instanceof Frame.ProbeReport report) {
                store.touch(node);
                agents.probeReport(node, report);
            } else if (frame instanceof Frame.Fabric fabric) {
                store.touch(node);
                fabric(fabric);
            } else if (frame instanceof Frame.KernelEventsReport report) {
                store.touch(node);
                kernel = report.events();
                store.kernelEvents(node, kernel);
            } else if (frame instanceof Frame.DevlinkHealthReport report) {
                store.touch(node);
                health = report.reporters();
            } else if (decoded.sample() != null) {
                ingest(decoded.sample(), ((Frame.Values) frame).seq());
            } else {
                store.touch(node);
            }
        } catch (StreamRefusal e) {
            reject(e);
        }
    }

    /** A hello after the first on one connection: checked like the first (its own connection holds the name). */
    private void admit(Frame.Hello hello) throws StreamRefusal {
        checkHello(hello);
        register(hello);
    }

    private void checkHello(Frame.Hello hello) throws StreamRefusal {
        String name = hello.node();
        if (!Names.isNodeName(name)) {
            throw new StreamRefusal(StreamRefusal.PROTOCOL_ERROR, StreamRefusal.INVALID_TEXT,
                    "invalid node name " + WireText.quote(name) + " (" + Names.nodeNameRule() + ")");
        }
        if (token != null && token.node() != null && !token.node().equals(name)) {
            throw new StreamRefusal(StreamRefusal.POLICY_VIOLATION, StreamRefusal.TOKEN_NODE,
                    "token is bound to another node than " + name);
        }
        if (agents.shuttingDown()) {
            // an agent whose next URL is this replica, or whose only URL it is, comes back after its backoff
            throw new StreamRefusal(StreamRefusal.SERVICE_RESTART, StreamRefusal.SHUTDOWN, AgentRegistry.SHUTDOWN_REASON);
        }
        AgentConnection holder = agents.holder(name);
        if (holder != null) {
            // the live connection keeps the name: a second agent with the same name, or an impersonator, must
            // neither merge its samples into the node nor take the name over (a half-open old connection is
            // cleared by the idle timeout, after which the agent's retry gets in)
            throw conflict(name, "hello from " + peer() + " refused: a live connection from " + holder.peer()
                    + " holds the name");
        }
    }

    private StreamRefusal conflict(String name, String detail) {
        store.nameConflict(name, detail);
        LOG.log(System.Logger.Level.WARNING, "node name conflict for {0}: {1}", name, detail);
        return new StreamRefusal(StreamRefusal.POLICY_VIOLATION, StreamRefusal.NAME_CONFLICT,
                "node name conflict: " + name + " is streaming on another live connection");
    }

    private void register(Frame.Hello hello) throws StreamRefusal {
        String name = hello.node();
        NodeCost estimate = NodeCost.of(hello.layout());
        switch (store.connect(name, hello.agentVersion(), hello.intervalMillis(), estimate)) {
            case NODE_LIMIT -> throw new StreamRefusal(StreamRefusal.TRY_AGAIN_LATER, StreamRefusal.NODE_LIMIT,
                    "node limit reached; not accepting " + name);
            case HEAP -> throw heapFull(name, estimate);
            case ADMITTED -> {
            }
        }
        cost = estimate;
        node = name;
        this.hello = hello;
        registered = true;
        agents.attach(node, this);
        LOG.log(System.Logger.Level.INFO, "agent {0} (version {1}) connected from {2}", node, hello.agentVersion(), peer());
    }

    /**
     * A layout change: the node's estimate follows it; a node growing beyond what the heap can take is closed like a
     * hello that would not fit (its last sample stays until it expires).
     */
    private void relayout(Frame.LayoutChange change) throws StreamRefusal {
        store.touch(node);
        NodeCost estimate = NodeCost.of(change.layout());
        if (!store.relayout(node, estimate)) {
            throw heapFull(node, estimate);
        }
        cost = estimate;
    }

    /** 1013: the heap cannot take {@code name} at {@code estimate}; the agent comes back with its backoff. */
    private StreamRefusal heapFull(String name, NodeCost estimate) {
        return new StreamRefusal(StreamRefusal.TRY_AGAIN_LATER, StreamRefusal.HEAP,
                "collector heap full: not accepting " + name + " (estimated " + mib(estimate.stateBytes()) + " MiB; "
                        + mib(store.estimatedBytes()) + " of " + mib(store.admissionLimitBytes()) + " MiB taken)");
    }

    private static String mib(long bytes) {
        return String.format(java.util.Locale.ROOT, "%.1f", bytes / 1048576.0);
    }

    private void ingest(HostSample decoded, long seq) {
        // the kernel events travel in their own frame; each sample carries the latest (for /metrics and the rules)
        // so do the devlink health reporters: the next sample carries them (a transition is a change of the samples)
        HostSample withKernel = kernel == null ? decoded : decoded.withKernel(kernel);
        HostSample sample = health == null ? withKernel : withKernel.withHealth(health);
        NodeStore.Ingest outcome = store.accept(sample, hello.instance(), seq);
        if (outcome == NodeStore.Ingest.UNKNOWN_NODE && store.connect(node, hello.agentVersion(),
                hello.intervalMillis(), cost) == NodeStore.Admission.ADMITTED) {
            // expired while connected (a very long silence on an open connection): registered again
            outcome = store.accept(sample, hello.instance(), seq);
        }
        if (!sampleStored && (outcome == NodeStore.Ingest.APPLIED || outcome == NodeStore.Ingest.DUPLICATE)) {
            sampleStored = true;
            claims.firstSampleStored(node, hello.instance());
        }
        switch (outcome) {
            case APPLIED -> {
                metrics.samplesIngested.inc();
                applied.accept(sample);
            }
            case DUPLICATE -> metrics.samplesDuplicate.inc();
            case AHEAD_OF_CLOCK -> refused(NodeStore.REFUSED_AHEAD_OF_CLOCK, "sample seq " + seq + " stamped "
                    + sample.timestampMillis() + " is ahead of the collector's clock by more than ingest.maxClockSkew");
            case UNKNOWN_NODE -> {
                // the node limit was reached meanwhile: the sample is dropped, as the hello of a new node would be
            }
        }
        // acknowledged in every case: a refused sample would be refused again if the agent replayed it
        ws.writeBinaryMessage(Buffer.buffer(codec.encode(new Frame.Ack(seq))));
    }

    /**
     * A part of a fabric sweep ({@code --fabric}), applied on the fabric worker ({@link FabricWorker}): a sweep the
     * fabric store refuses (out of order, beyond its bounds) is logged and dropped, and the stream goes on: the host's
     * own samples matter more than the fabric. Until it is applied the part holds a place among the frames in flight,
     * so a sweeper that sends faster than the store applies is paused like one that sends faster than frames decode.
     */
    private void fabric(Frame.Fabric frame) {
        holdInFlight();
        String sweeper = node;
        fabrics.accept(sweeper, frame).onComplete(done -> {
            releaseInFlight();
            if (done.failed()) {
                LOG.log(System.Logger.Level.WARNING, "agent {0} from {1}: fabric sweep dropped: {2}", sweeper, peer(),
                        done.cause() instanceof IllegalArgumentException refused ? refused.getMessage()
                                : done.cause().toString());
            }
        });
    }

    /** Counts a refused sample; logs the first and then at most one line a minute per connection. */
    private void refused(String reason, String detail) {
        metrics.samplesRefused.labelValues(reason).inc();
        refusedSinceLog++;
        long now = System.nanoTime();
        if (lastRefusalLogNanos == 0 || now - lastRefusalLogNanos >= REFUSAL_LOG_NANOS) {
            LOG.log(System.Logger.Level.WARNING, "agent {0} from {1}: {2} sample(s) refused ({3}), last: {4}", node,
                    peer(), refusedSinceLog, reason, detail);
            refusedSinceLog = 0;
            lastRefusalLogNanos = now;
        }
    }

    /** Writes a collector → agent frame (probe start or cancel). */
    void send(Frame frame) {
        if (!closing) {
            ws.writeBinaryMessage(Buffer.buffer(codec.encode(frame)));
        }
    }

    String remoteHost() {
        return ws.remoteAddress().hostAddress();
    }

    boolean accepts(String capability) {
        return hello != null && hello.accepts(capability);
    }

    private void closeIfIdle() {
        if (!closing && !closed && !admitting && System.nanoTime() - lastFrameNanos > idleTimeout.toNanos()) {
            reject(new StreamRefusal(StreamRefusal.GOING_AWAY, StreamRefusal.IDLE,
                    "no frame for " + idleTimeout.toMillis() + " ms (ingest.idleTimeout)"));
        }
    }

    private void reject(StreamRefusal refusal) {
        if (closing) {
            return;
        }
        closing = true;
        metrics.streamsClosed.labelValues(refusal.kind()).inc();
        LOG.log(System.Logger.Level.WARNING, "closing agent stream from {0}{1}: {2} {3}", peer(),
                node == null ? "" : " (node " + node + ")", String.valueOf(refusal.code()), refusal.getMessage());
        // the node's name is free at once: the close handshake of a half-open connection may never complete
        release();
        ws.close(refusal.code(), closeReason(refusal.getMessage()));
    }

    private void releaseReceiving() {
        if (receiving > 0) {
            admission.received(receiving);
            receiving = 0;
        }
    }

    /** Gives up this connection's hold on its node (store and registry); once, however often it is called. */
    private void release() {
        releaseReceiving();
        home.owner().cancelTimer(idleTimer);
        if (registered) {
            registered = false;
            store.disconnect(node);
            fabrics.sweeperGone(node);
            agents.detach(node, this);
            claims.disconnected(node, hello.instance());
        }
    }

    /** Closes the stream with {@code code}: the replica shuts down (1012), or another replica took the node (4010). */
    void close(short code, String reason) {
        reject(new StreamRefusal(code, code == StreamRefusal.NODE_MOVED ? StreamRefusal.MOVED : StreamRefusal.SHUTDOWN,
                reason));
    }

    /** The agent run holding this connection (its hello's instance id); null before the hello. */
    String instance() {
        return hello == null ? null : hello.instance();
    }

    String peer() {
        return String.valueOf(ws.remoteAddress());
    }

    /** The longest prefix of {@code reason} that fits a close frame; linear in that prefix, whatever the reason's length. */
    static String closeReason(String reason) {
        int bytes = 0;
        int end = 0;
        while (end < reason.length()) {
            int codePoint = reason.codePointAt(end);
            int width = codePoint < 0x80 ? 1 : codePoint < 0x800 ? 2 : codePoint < 0x10000 ? 3 : 4;
            if (bytes + width > MAX_CLOSE_REASON_BYTES) {
                break;
            }
            bytes += width;
            end += Character.charCount(codePoint);
        }
        return reason.substring(0, end);
    }
}
