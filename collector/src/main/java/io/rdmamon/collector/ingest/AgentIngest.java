package io.rdmamon.collector.ingest;

import io.rdmamon.collector.auth.Role;
import io.rdmamon.collector.auth.TokenAuthenticator;
import io.rdmamon.collector.auth.TokenEntry;
import io.rdmamon.collector.fabric.FabricWorker;
import io.rdmamon.collector.store.NodeStore;
import io.rdmamon.collector.web.Routes;
import io.rdmamon.protocol.model.HostSample;
import io.rdmamon.protocol.wire.Frame;
import io.rdmamon.protocol.wire.FrameCodec;
import io.rdmamon.protocol.wire.OptionalFrames;
import io.rdmamon.protocol.wire.WireFormat;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpHeaders;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The ingest route ({@code GET /api/agent/stream}, WebSocket upgrade). The agent's token is checked
 * on the upgrade request; an unknown token gets 401 and no WebSocket, a token of another role (or none, when
 * no agent token is configured but other tokens are) 403.
 */
public final class AgentIngest implements Handler<RoutingContext>, Routes {
    /**
     * Frames of one connection between arrival and application; beyond this the socket stops reading until
     * the decode loop catches up, as it would if the decoding ran on the verticle's loop.
     */
    public static final int MAX_FRAMES_IN_FLIGHT = 4;
    /** Hellos waiting for {@link HelloAdmission} hold at most this much: 2,000 8-port hellos are about 66 MB. */
    static final long MAX_WAITING_HELLO_BYTES = 96L << 20;
    /**
     * The optional frame types this collector decodes and applies, announced in the upgrade answer's
     * {@link WireFormat#ACCEPTS_HEADER}; an agent sends no other optional frame to it.
     */
    public static final List<String> ACCEPTED_OPTIONAL_FRAMES = List.of(Frame.Fabric.TYPE, Frame.KernelEventsReport.TYPE,
            Frame.DevlinkHealthReport.TYPE);

    /**
     * What the hellos being received or waiting for {@link HelloAdmission} may hold in a JVM of {@code maxHeapBytes}:
     * {@link #MAX_WAITING_HELLO_BYTES}, or a sixteenth of the heap when that is less (8 MiB at {@code -Xmx128m}), so
     * that a connection storm cannot take the heap the admitted nodes need.
     */
    public static long maxWaitingHelloBytes(long maxHeapBytes) {
        return Math.min(MAX_WAITING_HELLO_BYTES, maxHeapBytes / 16);
    }
    private static final System.Logger LOG = System.getLogger(AgentIngest.class.getName());
    private final TokenAuthenticator auth;
    private final FrameCodec codec;
    private final NodeStore store;
    private final SelfMetrics metrics;
    private final AgentRegistry agents;
    private final Consumer<HostSample> applied;
    private final DecodeLoops decodeLoops;
    private final IngestLimits limits;
    private final FrameLimits frameLimits;
    private final HelloClaims claims;
    private final FabricWorker fabrics;
    /** Made on the first connection, on the verticle's loop, where every connection lives. */
    private HelloAdmission admission;

    /**
     * {@code applied} sees every sample the store applied (the diagnosis engine), on the event loop;
     * frames are decoded on {@code decodeLoops}, which must be deployed before the first connection; {@code claims}
     * takes each hello's node in the cluster-wide directory; {@code fabrics} takes the {@code --fabric} agents'
     * sweeps.
     */
    public AgentIngest(TokenAuthenticator auth, FrameCodec codec, IngestLimits limits, NodeStore store,
                       SelfMetrics metrics, AgentRegistry agents, Consumer<HostSample> applied, DecodeLoops decodeLoops,
                       HelloClaims claims, FabricWorker fabrics) {
        this.fabrics = fabrics;
        this.claims = claims;
        this.limits = limits;
        this.frameLimits = new FrameLimits(limits);
        this.decodeLoops = decodeLoops;
        this.agents = agents;
        this.applied = applied;
        this.auth = auth;
        this.codec = codec;
        this.store = store;
        this.metrics = metrics;
    }

    @Override
    public void mount(Router router) {
        router.get(WireFormat.STREAM_PATH).handler(this);
    }

    @Override
    public void handle(RoutingContext ctx) {
        String header = ctx.request().getHeader(HttpHeaders.AUTHORIZATION);
        Optional<TokenAuthenticator.Refusal> refusal = auth.check(header, EnumSet.of(Role.AGENT));
        if (refusal.isPresent()) {
            metrics.authFailures.inc();
            auth.refuse(ctx, refusal.get()); // logged by the collector's throttled refusal log, with the peer address
            return;
        }
        Optional<TokenEntry> token = auth.authenticate(header, EnumSet.of(Role.AGENT));
        if (admission == null) {
            admission = new HelloAdmission(Vertx.currentContext(),
                    HelloAdmission.defaultConcurrency(Runtime.getRuntime().availableProcessors()),
                    maxWaitingHelloBytes(Runtime.getRuntime().maxMemory()));
        }
        ctx.response().putHeader(WireFormat.ACCEPTS_HEADER, OptionalFrames.header(ACCEPTED_OPTIONAL_FRAMES));
        ctx.response().putHeader(WireFormat.MAX_FRAME_HEADER, Integer.toString(codec.maxFrameBytes()));
        ctx.request().toWebSocket()
                .onSuccess(ws -> new AgentConnection(ws, token.orElse(null), codec, frameLimits,
                        limits.idleTimeout(), store, metrics, agents, applied, decodeLoops.assign(), admission, claims, fabrics).start())
                .onFailure(e -> LOG.log(System.Logger.Level.WARNING, "WebSocket upgrade from {0} failed: {1}",
                        ctx.request().remoteAddress(), e.getMessage()));
    }
}
