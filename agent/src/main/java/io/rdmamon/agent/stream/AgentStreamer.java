package io.rdmamon.agent.stream;

import io.rdmamon.agent.probe.ProbeRunner;
import io.rdmamon.protocol.model.HostSample;
import io.rdmamon.protocol.wire.Frame;
import io.rdmamon.protocol.wire.FrameCodec;
import io.rdmamon.protocol.wire.FrameException;
import io.rdmamon.protocol.wire.HostTextFrames;
import io.rdmamon.protocol.wire.OptionalFrames;
import io.rdmamon.protocol.wire.SampleFrames;
import io.rdmamon.protocol.wire.SampleEncoder;
import io.rdmamon.protocol.wire.WireFormat;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.VerticleBase;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.UpgradeRejectedException;
import io.vertx.core.http.WebSocket;
import io.vertx.core.http.WebSocketClient;
import io.vertx.core.http.WebSocketClientOptions;
import io.vertx.core.http.WebSocketConnectOptions;
import io.vertx.core.net.PemTrustOptions;

import java.security.GeneralSecurityException;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import javax.net.ssl.SSLException;
import java.util.random.RandomGenerator;

/**
 * Streams the agent's samples to the collector: the transport sink of the agent daemon
 * ({@code io.rdmamon.agent.daemon.AgentDaemon}), which reads the host and hands each sample to {@link #offer}.
 *
 * <p>Sampling never depends on the connection: every sample goes into a bounded {@link ReplayBuffer}
 * and stays there until the collector acknowledges it, so a short outage loses nothing (a long one
 * loses the oldest samples, counted in {@link Stats#dropped()}). On connect the agent sends a hello
 * (with the layout) and every unacknowledged sample, oldest first. Lost connections are retried with
 * full-jitter exponential backoff ({@link Backoff}). A collector that keeps the connection open but acknowledges
 * nothing for {@link AgentStreamerOptions#ackDeadline()} (a stopped or wedged replica) counts as lost too: TCP alone
 * would keep the agent, and its node, on it for good. All state lives on this verticle's event loop.
 *
 * <p>Probe frames from the collector go to a {@link ProbeRunner}; its reports are sent on the
 * connection the probe was started on and dropped if that connection is gone (they are not
 * samples: not buffered, not replayed). When the connection drops, its probes are killed, since
 * their collector has failed them and can no longer stop them.
 */
public final class AgentStreamer extends VerticleBase {
    private static final System.Logger LOG = System.getLogger(AgentStreamer.class.getName());

    /**
     * Counters for the agent's own metrics and for tests; {@code lastFailure} is why the last connection attempt
     * failed or the last connection ended (e.g. a refused certificate), null while connected or before any failure.
     */
    public record Stats(boolean connected, int buffered, long dropped, long samplesOffered, long acknowledgedSeq,
                        long connects, String lastFailure, String endpoint, long failovers) {
        /** Without the endpoint and failover count, as before several collector URLs. */
        public Stats(boolean connected, int buffered, long dropped, long samplesOffered, long acknowledgedSeq,
                     long connects, String lastFailure) {
            this(connected, buffered, dropped, samplesOffered, acknowledgedSeq, connects, lastFailure, null, 0);
        }
    }

    /** Close code of a collector replica that shuts down (RFC 6455 registry "Service Restart"): move on at once. */
    static final short SERVICE_RESTART = 1012;
    /** Close code the agent sends to a collector it gives up on for not acknowledging (RFC 6455 "Going Away"). */
    static final short GOING_AWAY = 1001;
    /**
     * Acknowledged samples kept and sent again on every (re)connect: what a replica acknowledged just before it died
     * or drained reaches the next one, whose history then has no gap (ReplayBuffer). Ten seconds at 1 Hz covers a
     * replica's last moments; more would cost heap on every node (a sample of an 8-port host is about 140 KiB).
     */
    static final int RETAINED_AFTER_ACK = 10;
    /** Between the URLs of one round, a failed attempt waits at most this long before the next URL. */
    static final long NEXT_URL_JITTER_MILLIS = 250;

    private final AgentStreamerOptions options;
    private final List<StreamEndpoint> endpoints;
    /** The endpoint tried or connected now: {@code endpoints.get(current)}. */
    private volatile int current;
    /** Failed attempts since the last connection, across the URLs: a whole round of them earns the backoff. */
    private int failuresInRound;
    /** The endpoint of the last established connection; -1 before the first. */
    private int lastConnected = -1;
    private volatile long failovers;
    private final RandomGenerator random;
    /**
     * Frames are sent within the collector's default {@code maxFrameBytes}: a collector announces no other (its
     * upgrade answer lists frame types only, its ack a seq), so one configured below the default may still refuse.
     */
    private final FrameCodec codec = new FrameCodec(WireFormat.DEFAULT_MAX_FRAME_BYTES, "agent");
    private final ReplayBuffer buffer;
    private final Backoff backoff;
    /** This run of the agent, in every hello: the collector tells a reconnect (seq goes on) from a restart. */
    private final String instance = UUID.randomUUID().toString();
    private WebSocketClient client;
    private ProbeRunner probes;
    private WebSocket ws;
    private SampleEncoder encoder;
    private long sentUpTo;
    private long lastWriteMillis;
    /**
     * Fires when samples sent on this connection wait for an acknowledgement and the collector has acknowledged
     * nothing new for the deadline: armed by a send while none waited, armed again by every ack that leaves some
     * waiting; -1 when none wait.
     */
    private long ackTimer = -1;
    private volatile Context streamerContext;
    private volatile boolean stopped;
    private long reconnectTimer = -1;
    private volatile long nextSeq;
    private volatile long acknowledgedSeq;
    private volatile long connects;
    private volatile boolean connected;
    private volatile String lastFailure;
    /** The optional frame types the collector of the current connection accepts (its upgrade answer's header). */
    private volatile Set<String> collectorAccepts = Set.of();
    /**
     * What this connection's frames are encoded with: the largest frame the collector announced
     * ({@link WireFormat#MAX_FRAME_HEADER}), so that the agent never sends one it must refuse.
     */
    private volatile FrameCodec sendCodec = codec;

    public AgentStreamer(AgentStreamerOptions options) {
        this(options, RandomGenerator.getDefault());
    }

    AgentStreamer(AgentStreamerOptions options, RandomGenerator random) {
        this.options = options;
        this.endpoints = StreamEndpoint.list(options.collectorUrl());
        this.random = random;
        this.buffer = new ReplayBuffer(options.bufferCapacity(), RETAINED_AFTER_ACK);
        this.backoff = new Backoff(options.backoffBase(), options.backoffCap(), random);
    }

    public Stats stats() {
        return new Stats(connected, buffer.size(), buffer.dropped(), nextSeq, acknowledgedSeq, connects, lastFailure,
                endpoint().toString(), failovers);
    }

    /** The collector endpoint connected to, or tried next. */
    public StreamEndpoint endpoint() {
        return endpoints.get(current);
    }

    @Override
    public Future<?> start() {
        WebSocketClientOptions clientOptions = new WebSocketClientOptions().setMaxMessageSize(codec.maxFrameBytes());
        if (endpoints.stream().anyMatch(StreamEndpoint::ssl)) {
            clientOptions.setSsl(true).setVerifyHost(true);
            if (options.trustCaFile() != null) {
                clientOptions.setTrustOptions(new PemTrustOptions().addCertPath(options.trustCaFile().toString()));
            }
        }
        client = vertx.createWebSocketClient(clientOptions);
        streamerContext = context;
        probes = new ProbeRunner(options.probes(), report -> streamerContext.runOnContext(v -> sendProbeReport(report)));
        long heartbeat = options.heartbeatInterval().toMillis();
        vertx.setPeriodic(heartbeat, heartbeat, id -> heartbeat());
        connect();
        return Future.succeededFuture();
    }

    @Override
    public Future<?> stop() {
        stopped = true;
        Future<Void> closing = ws == null ? Future.succeededFuture() : ws.close();
        Future<Void> probesClosed = vertx.executeBlocking(() -> {
            probes.close(); // waits until the killed processes are gone
            return null;
        }, false);
        return Future.all(closing, probesClosed).transform(v -> client.close());
    }

    /**
     * Buffers {@code sample} (named as this agent's node) and sends it when connected. Any thread; a sample
     * offered before the streamer started or after it stopped is ignored.
     */
    public void offer(HostSample sample) {
        Context running = streamerContext;
        if (running == null || stopped) {
            return;
        }
        running.runOnContext(v -> {
            if (!stopped) {
                buffer.add(++nextSeq, sample);
                sendPending();
            }
        });
    }

    private void connect() {
        reconnectTimer = -1;
        if (stopped) {
            return;
        }
        StreamEndpoint endpoint = endpoint();
        WebSocketConnectOptions connect = new WebSocketConnectOptions().setHost(endpoint.host())
                .setPort(endpoint.port()).setSsl(endpoint.ssl()).setURI(endpoint.path());
        if (options.token() != null) {
            connect.putHeader(HttpHeaders.AUTHORIZATION, "Bearer " + options.token());
        }
        client.connect(connect).onSuccess(this::connected).onFailure(e -> {
            String reason = e instanceof UpgradeRejectedException rejected
                    ? "collector answered " + rejected.getStatus() + (rejected.getStatus() == 401 ? " (token refused)" : "")
                    : failureReason(e);
            scheduleReconnect("cannot connect to " + endpoint + ": " + reason, false);
        });
    }

    private void connected(WebSocket socket) {
        if (stopped) {
            socket.close();
            return;
        }
        ws = socket;
        collectorAccepts = OptionalFrames.parse(socket.headers().get(WireFormat.ACCEPTS_HEADER));
        int maxFrameBytes = WireFormat.maxFrameBytes(socket.headers().get(WireFormat.MAX_FRAME_HEADER));
        sendCodec = maxFrameBytes == codec.maxFrameBytes() ? codec : new FrameCodec(maxFrameBytes, "agent");
        connected = true;
        lastFailure = null;
        connects++;
        failuresInRound = 0;
        if (lastConnected >= 0 && lastConnected != current) {
            failovers++;
        }
        lastConnected = current;
        StreamEndpoint endpoint = endpoint();
        // the hello tells the collector whether this agent runs probes, so that it can refuse one at once
        encoder = new SampleEncoder(options.node(), options.agentVersion(), options.interval().toMillis(),
                options.probes().capabilities(), instance);
        sentUpTo = buffer.replayFrom(acknowledgedSeq);
        LOG.log(System.Logger.Level.INFO, "streaming to {0}; {1} samples to replay ({2} acknowledged ones sent again)",
                endpoint, buffer.size(), String.valueOf(acknowledgedSeq - sentUpTo));
        socket.binaryMessageHandler(message -> onMessage(socket, message));
        socket.exceptionHandler(e -> LOG.log(System.Logger.Level.DEBUG, "stream to {0}: {1}", endpoint(), e.toString()));
        socket.closeHandler(v -> {
            Short code = socket.closeStatusCode();
            String reason = socket.closeReason() == null || socket.closeReason().isEmpty() ? "" : " " + socket.closeReason();
            String why = code == null ? "connection lost" : "closed by collector (" + code + reason + ")";
            lost(socket, why, code != null && code == SERVICE_RESTART);
        });
        sendPending();
    }

    /** {@code socket} is no longer the connection, if it still was: its probes go and the next attempt is scheduled. */
    private void lost(WebSocket socket, String why, boolean serviceRestart) {
        if (ws != socket) {
            return;
        }
        ws = null;
        connected = false;
        vertx.cancelTimer(ackTimer);
        ackTimer = -1;
        probes.abandonAll("connection to the collector lost");
        scheduleReconnect(why, serviceRestart);
    }

    /** (Re)starts the acknowledgement deadline of {@code socket} if samples sent on it wait for an ack, else stops it. */
    private void awaitAcknowledgement(WebSocket socket) {
        vertx.cancelTimer(ackTimer);
        ackTimer = sentUpTo > acknowledgedSeq
                ? vertx.setTimer(options.ackDeadline().toMillis(), id -> noAcknowledgement(socket)) : -1;
    }

    /**
     * A collector that is stopped (SIGSTOP) or wedged keeps its sockets open and answers nothing, so the connection
     * is given up here rather than by TCP: at once, not after the close handshake it would never answer.
     */
    private void noAcknowledgement(WebSocket socket) {
        ackTimer = -1;
        long deadline = options.ackDeadline().toMillis();
        lost(socket, "no acknowledgement from " + endpoint() + " for " + deadline + " ms", false);
        socket.close(GOING_AWAY, "no acknowledgement for " + deadline + " ms");
    }

    private void onMessage(WebSocket socket, Buffer message) {
        try {
            Frame frame = codec.decode(message.getBytes());
            if (frame instanceof Frame.Ack ack) {
                if (ack.seq() > acknowledgedSeq) {
                    acknowledgedSeq = ack.seq();
                    awaitAcknowledgement(socket);
                }
                buffer.acknowledge(ack.seq());
                backoff.reset(); // the collector accepts our data: a later loss starts from the base window
            } else if (frame instanceof Frame.ProbeStart start) {
                probes.start(start);
            } else if (frame instanceof Frame.ProbeCancel cancel) {
                probes.cancel(cancel);
            }
        } catch (FrameException e) {
            LOG.log(System.Logger.Level.WARNING, "closing stream to {0}: bad frame from collector: {1}", endpoint(),
                    e.getMessage());
            socket.close((short) 1002, "bad frame from collector");
        }
    }

    private void sendPending() {
        WebSocket socket = openSocket();
        if (socket == null) {
            return;
        }
        List<ReplayBuffer.Entry> pending = buffer.after(sentUpTo);
        for (ReplayBuffer.Entry entry : pending) {
            if (socket.writeQueueFull()) {
                socket.drainHandler(v -> sendPending());
                return;
            }
            for (byte[] frame : SampleFrames.encode(encoder, sendCodec, entry.sample(), entry.seq())) {
                write(socket, frame);
            }
            sentUpTo = entry.seq();
            if (ackTimer < 0) {
                awaitAcknowledgement(socket);
            }
        }
    }

    /**
     * The connection to write on, or null. A collector that refused or dropped the agent sent its close frame
     * before it closes the TCP connection; in between {@code ws} is still set but closed, and a write on it fails
     * ({@code writeQueueFull} even throws): nothing is sent until the close handler has scheduled the next attempt.
     */
    private WebSocket openSocket() {
        WebSocket socket = ws;
        return socket == null || socket.isClosed() ? null : socket;
    }

    /** Whether the collector of the current connection accepts optional frames of {@code type}. */
    public boolean collectorAccepts(String type) {
        return connected && collectorAccepts.contains(type);
    }

    /**
     * Sends {@code frame}, an optional frame of {@code type}, when connected to a collector that accepts that type and
     * the hello went out; otherwise drops it. Any thread. Optional frames are state, not samples: neither buffered
     * nor replayed, so the next one after a reconnect replaces what was lost.
     *
     * @return whether it was written
     */
    public Future<Boolean> sendOptional(String type, Frame frame) {
        Context running = streamerContext;
        if (running == null || stopped) {
            return Future.succeededFuture(false);
        }
        Promise<Boolean> written = Promise.promise();
        running.runOnContext(v -> {
            WebSocket socket = openSocket();
            boolean send = socket != null && !stopped && encoder != null && encoder.helloSent()
                    && collectorAccepts.contains(type);
            if (send) {
                byte[] bytes = encode(frame);
                // the collector would close the stream: this state is lost, the next frame of its type replaces it
                send = bytes.length <= sendCodec.maxFrameBytes();
                if (send) {
                    write(socket, bytes);
                } else {
                    LOG.log(System.Logger.Level.WARNING, "{0} frame of {1} bytes left out: past the collector''s"
                            + " frame of {2} bytes", type, String.valueOf(bytes.length),
                            String.valueOf(sendCodec.maxFrameBytes()));
                }
            }
            written.complete(send);
        });
        return written.future();
    }

    /** On the event loop. Probes of a lost connection were abandoned, so a report here belongs to {@code ws}. */
    private void sendProbeReport(Frame.ProbeReport report) {
        WebSocket socket = openSocket();
        if (socket == null) {
            LOG.log(System.Logger.Level.DEBUG, "probe {0}: report {1} dropped, not connected", report.probeId(),
                    report.phase().wireName());
            return;
        }
        write(socket, report);
    }

    private void heartbeat() {
        WebSocket socket = openSocket();
        long now = System.currentTimeMillis();
        if (socket != null && encoder.helloSent() && now - lastWriteMillis >= options.heartbeatInterval().toMillis()) {
            write(socket, new Frame.Heartbeat(now));
        }
    }

    private void write(WebSocket socket, Frame frame) {
        write(socket, encode(frame));
    }

    /**
     * Every frame is encoded here or by {@link SampleFrames}, which fits a sample's names, counts and frame sizes
     * before encoding: the places host text is made fit for the collector's limits.
     */
    private byte[] encode(Frame frame) {
        return sendCodec.encode(HostTextFrames.sanitize(frame));
    }

    private void write(WebSocket socket, byte[] frame) {
        lastWriteMillis = System.currentTimeMillis();
        socket.writeBinaryMessage(Buffer.buffer(frame));
    }

    /**
     * The message of {@code e} plus the first security exception below it: a TLS failure surfaces as a generic
     * "Failed to create SSL connection" whose cause says what is wrong with the certificate (PKIX path, expiry,
     * host name). Other failures add their root cause.
     */
    static String failureReason(Throwable e) {
        String message = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        Throwable detail = null;
        for (Throwable t = e.getCause(); t != null && t != detail; t = t.getCause()) {
            detail = t;
            if (t instanceof SSLException || t instanceof GeneralSecurityException) {
                break;
            }
        }
        if (detail == null || detail.getMessage() == null || message.contains(detail.getMessage())) {
            return message;
        }
        return message + ": " + detail.getMessage();
    }

    /**
     * After a failed attempt or a lost connection: the next URL in order (wrapping; the same one when there is one).
     * Within a round of the URLs the next attempt follows after a short jittered pause; once every URL failed in a
     * row, after the exponential {@link Backoff}. A replica shutting down ({@code serviceRestart}, close 1012) asked
     * its agents to move: the next URL at once.
     */
    private void scheduleReconnect(String reason, boolean serviceRestart) {
        if (stopped || reconnectTimer >= 0) {
            return;
        }
        lastFailure = reason;
        current = (current + 1) % endpoints.size();
        long delay;
        if (serviceRestart) {
            delay = 1;
        } else if (++failuresInRound >= endpoints.size()) {
            failuresInRound = 0;
            delay = Math.max(1, backoff.nextDelayMillis());
        } else {
            delay = 1 + random.nextLong(NEXT_URL_JITTER_MILLIS);
        }
        LOG.log(System.Logger.Level.WARNING, "{0}; {1} in {2} ms ({3} samples buffered, {4} dropped)", reason,
                endpoints.size() > 1 ? "trying " + endpoint() : "retrying", String.valueOf(delay), buffer.size(),
                buffer.dropped());
        reconnectTimer = vertx.setTimer(delay, id -> connect());
    }
}
