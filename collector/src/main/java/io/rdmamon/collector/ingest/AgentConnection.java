package io.rdmamon.collector.ingest;

import io.rdmamon.collector.auth.TokenEntry;
import io.rdmamon.collector.metrics.SelfMetrics;
import io.rdmamon.collector.store.NodeStore;
import io.rdmamon.protocol.model.HostSample;
import io.rdmamon.protocol.wire.Frame;
import io.rdmamon.protocol.wire.FrameCodec;
import io.rdmamon.protocol.wire.FrameException;
import io.rdmamon.protocol.wire.SampleDecoder;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.ServerWebSocket;

import java.nio.charset.StandardCharsets;
import java.util.function.Consumer;
import java.util.regex.Pattern;

/**
 * One agent's stream. A frame is decoded (JSON and the rebuild of the sample) on the connection's decode
 * loop ({@link DecodeLoops}) and applied on the event loop of the collector verticle, where the connection
 * lives and everything with state runs (store, diagnosis, agent registry, acks); both steps keep the
 * frames' order. A bad frame closes this connection only (close code 1002 with the reason), never the server.
 */
final class AgentConnection {
    private static final System.Logger LOG = System.getLogger(AgentConnection.class.getName());
    private static final Pattern NODE_NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._:-]{0,252}");
    private static final short PROTOCOL_ERROR = 1002;
    private static final short POLICY_VIOLATION = 1008;
    private static final short TRY_AGAIN_LATER = 1013;
    private static final int MAX_FRAMES_IN_FLIGHT = AgentIngest.MAX_FRAMES_IN_FLIGHT;

    /** What the decode loop made of a frame: the frame and its sample, or the reason to refuse it. */
    private record Decoded(Frame frame, HostSample sample, FrameException refusal) {
    }

    private final ServerWebSocket ws;
    private final TokenEntry token;
    private final FrameCodec codec;
    private final NodeStore store;
    private final SelfMetrics metrics;
    private final AgentRegistry agents;
    private final Consumer<HostSample> applied;
    private final Context decodeLoop;
    /** Touched on the decode loop only. */
    private final SampleDecoder decoder = new SampleDecoder();
    private Context home;
    private Frame.Hello hello;
    private String node;
    private boolean closing;
    private boolean closed;
    private int inFlight;

    AgentConnection(ServerWebSocket ws, TokenEntry token, FrameCodec codec, NodeStore store, SelfMetrics metrics,
                    AgentRegistry agents, Consumer<HostSample> applied, Context decodeLoop) {
        this.ws = ws;
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
        ws.binaryMessageHandler(message -> onFrame(message.getBytes()));
        ws.textMessageHandler(text -> reject(PROTOCOL_ERROR, "text messages are not part of the protocol; frames are binary"));
        ws.exceptionHandler(e -> LOG.log(System.Logger.Level.DEBUG, "agent stream from {0}: {1}", peer(), e.toString()));
        ws.closeHandler(v -> {
            closed = true; // frames still being decoded are dropped when they come back
            if (node != null) {
                store.disconnect(node);
                agents.detach(node, this);
            }
        });
    }

    private void onFrame(byte[] bytes) {
        if (closing) {
            return;
        }
        metrics.framesReceived.inc();
        if (++inFlight == MAX_FRAMES_IN_FLIGHT) {
            ws.pause();
        }
        decodeLoop.runOnContext(v -> {
            Decoded decoded = decode(bytes);
            home.runOnContext(w -> {
                if (inFlight-- == MAX_FRAMES_IN_FLIGHT) {
                    ws.resume();
                }
                apply(decoded);
            });
        });
    }

    /** On the decode loop. */
    private Decoded decode(byte[] bytes) {
        try {
            Frame frame = codec.decode(bytes);
            return new Decoded(frame, decoder.accept(frame).orElse(null), null);
        } catch (FrameException e) {
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
                throw decoded.refusal();
            }
            Frame frame = decoded.frame();
            if (frame == null) {
                return;
            }
            if (frame instanceof Frame.Hello h) {
                admit(h);
            } else if (frame instanceof Frame.ProbeReport report) {
                store.touch(node);
                agents.probeReport(node, report);
            } else if (decoded.sample() != null) {
                ingest(decoded.sample(), ((Frame.Values) frame).seq());
            } else {
                store.touch(node);
            }
        } catch (FrameException e) {
            metrics.framesRejected.inc();
            reject(PROTOCOL_ERROR, e.getMessage());
        }
    }

    private void admit(Frame.Hello hello) throws FrameException {
        if (!NODE_NAME.matcher(hello.node()).matches()) {
            throw new FrameException("invalid node name '" + abbreviate(hello.node(), 64) + "'");
        }
        if (token != null && token.node() != null && !token.node().equals(hello.node())) {
            reject(POLICY_VIOLATION, "token is bound to another node than " + hello.node());
            return;
        }
        if (!store.connect(hello.node(), hello.agentVersion(), hello.intervalMillis())) {
            reject(TRY_AGAIN_LATER, "node limit reached; not accepting " + hello.node());
            return;
        }
        node = hello.node();
        this.hello = hello;
        agents.attach(node, this);
        LOG.log(System.Logger.Level.INFO, "agent {0} (version {1}) connected from {2}", node, hello.agentVersion(), peer());
    }

    private void ingest(HostSample sample, long seq) {
        switch (store.accept(sample)) {
            case APPLIED -> {
                metrics.samplesIngested.inc();
                applied.accept(sample);
            }
            case DUPLICATE -> metrics.samplesDuplicate.inc();
            case UNKNOWN_NODE -> {
                // expired while connected (a very long silence on an open connection): register again
                if (store.connect(node, hello.agentVersion(), hello.intervalMillis())
                        && store.accept(sample) == NodeStore.Ingest.APPLIED) {
                    metrics.samplesIngested.inc();
                    applied.accept(sample);
                }
            }
        }
        ws.writeBinaryMessage(Buffer.buffer(codec.encode(new Frame.Ack(seq))));
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

    private void reject(short code, String reason) {
        if (closing) {
            return;
        }
        closing = true;
        LOG.log(System.Logger.Level.WARNING, "closing agent stream from {0}{1}: {2}", peer(),
                node == null ? "" : " (node " + node + ")", reason);
        ws.close(code, closeReason(reason));
    }

    private String peer() {
        return String.valueOf(ws.remoteAddress());
    }

    /** A close reason must fit in 123 bytes of UTF-8. */
    static String closeReason(String reason) {
        String cut = reason;
        while (cut.getBytes(StandardCharsets.UTF_8).length > 123) {
            cut = cut.substring(0, cut.length() - 1);
        }
        return cut;
    }

    private static String abbreviate(String text, int max) {
        return text.length() <= max ? text : text.substring(0, max) + "...";
    }
}
