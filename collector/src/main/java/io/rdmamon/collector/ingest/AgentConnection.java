package io.rdmamon.collector.ingest;

import io.rdmamon.collector.auth.TokenEntry;
import io.rdmamon.collector.metrics.SelfMetrics;
import io.rdmamon.collector.store.NodeStore;
import io.rdmamon.protocol.model.HostSample;
import io.rdmamon.protocol.wire.Frame;
import io.rdmamon.protocol.wire.FrameCodec;
import io.rdmamon.protocol.wire.FrameException;
import io.rdmamon.protocol.wire.SampleDecoder;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.ServerWebSocket;

import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * One agent's stream. Runs on the event loop of the collector verticle. A bad frame closes this
 * connection only (close code 1002 with the reason), never the server.
 */
final class AgentConnection {
    private static final System.Logger LOG = System.getLogger(AgentConnection.class.getName());
    private static final Pattern NODE_NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._:-]{0,252}");
    private static final short PROTOCOL_ERROR = 1002;
    private static final short POLICY_VIOLATION = 1008;
    private static final short TRY_AGAIN_LATER = 1013;

    private final ServerWebSocket ws;
    private final TokenEntry token;
    private final FrameCodec codec;
    private final NodeStore store;
    private final SelfMetrics metrics;
    private final AgentRegistry agents;
    private final SampleDecoder decoder = new SampleDecoder();
    private String node;
    private boolean closing;

    AgentConnection(ServerWebSocket ws, TokenEntry token, FrameCodec codec, NodeStore store, SelfMetrics metrics,
                    AgentRegistry agents) {
        this.ws = ws;
        this.agents = agents;
        this.token = token;
        this.codec = codec;
        this.store = store;
        this.metrics = metrics;
    }

    void start() {
        ws.binaryMessageHandler(message -> onFrame(message.getBytes()));
        ws.textMessageHandler(text -> reject(PROTOCOL_ERROR, "text messages are not part of the protocol; frames are binary"));
        ws.exceptionHandler(e -> LOG.log(System.Logger.Level.DEBUG, "agent stream from {0}: {1}", peer(), e.toString()));
        ws.closeHandler(v -> {
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
        try {
            Frame frame = codec.decode(bytes);
            Optional<HostSample> sample = decoder.accept(frame);
            if (frame instanceof Frame.Hello hello) {
                admit(hello);
            } else if (frame instanceof Frame.ProbeReport report) {
                store.touch(node);
                agents.probeReport(node, report);
            } else if (sample.isPresent()) {
                ingest(sample.get(), ((Frame.Values) frame).seq());
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
        agents.attach(node, this);
        LOG.log(System.Logger.Level.INFO, "agent {0} (version {1}) connected from {2}", node, hello.agentVersion(), peer());
    }

    private void ingest(HostSample sample, long seq) {
        switch (store.accept(sample)) {
            case APPLIED -> metrics.samplesIngested.inc();
            case DUPLICATE -> metrics.samplesDuplicate.inc();
            case UNKNOWN_NODE -> {
                // expired while connected (a very long silence on an open connection): register again
                Frame.Hello hello = decoder.hello().orElseThrow();
                if (store.connect(node, hello.agentVersion(), hello.intervalMillis())
                        && store.accept(sample) == NodeStore.Ingest.APPLIED) {
                    metrics.samplesIngested.inc();
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
