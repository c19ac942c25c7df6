package io.rdmamon.collector.ingest;

import io.rdmamon.collector.auth.Role;
import io.rdmamon.collector.auth.TokenAuthenticator;
import io.rdmamon.collector.auth.TokenEntry;
import io.rdmamon.collector.metrics.SelfMetrics;
import io.rdmamon.collector.store.NodeStore;
import io.rdmamon.protocol.model.HostSample;
import io.rdmamon.protocol.wire.FrameCodec;
import io.vertx.core.Handler;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;

import java.util.EnumSet;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The ingest route ({@code GET /api/agent/stream}, WebSocket upgrade). The agent's token is checked
 * on the upgrade request; an unknown token gets 401 and no WebSocket.
 */
public final class AgentIngest implements Handler<RoutingContext> {
    /**
     * Frames of one connection between arrival and application; beyond this the socket stops reading until
     * the decode loop catches up, as it would if the decoding ran on the verticle's loop.
     */
    public static final int MAX_FRAMES_IN_FLIGHT = 4;
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

    /**
     * {@code applied} sees every sample the store applied (the diagnosis engine), on the event loop;
     * frames are decoded on {@code decodeLoops}, which must be deployed before the first connection.
     */
    public AgentIngest(TokenAuthenticator auth, FrameCodec codec, IngestLimits limits, NodeStore store,
                       SelfMetrics metrics, AgentRegistry agents, Consumer<HostSample> applied, DecodeLoops decodeLoops) {
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
    public void handle(RoutingContext ctx) {
        Optional<TokenEntry> token = auth.authenticate(ctx.request().getHeader(HttpHeaders.AUTHORIZATION),
                EnumSet.of(Role.AGENT));
        if (auth.required(Role.AGENT) && token.isEmpty()) {
            metrics.authFailures.inc();
            LOG.log(System.Logger.Level.WARNING, "refused agent stream from {0}: missing or unknown token",
                    ctx.request().remoteAddress());
            ctx.response().setStatusCode(401).putHeader("WWW-Authenticate", "Bearer")
                    .putHeader(HttpHeaders.CONTENT_TYPE, "application/json")
                    .end(new JsonObject().put("error", "missing or unknown agent token").encode());
            return;
        }
        ctx.request().toWebSocket()
                .onSuccess(ws -> new AgentConnection(ws, token.orElse(null), codec, frameLimits,
                        limits.idleTimeout(), store, metrics, agents, applied, decodeLoops.assign()).start())
                .onFailure(e -> LOG.log(System.Logger.Level.WARNING, "WebSocket upgrade from {0} failed: {1}",
                        ctx.request().remoteAddress(), e.getMessage()));
    }
}
