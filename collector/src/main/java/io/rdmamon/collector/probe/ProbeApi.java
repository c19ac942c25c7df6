package io.rdmamon.collector.probe;

import io.rdmamon.collector.auth.Role;
import io.rdmamon.collector.auth.TokenAuthenticator;
import io.rdmamon.collector.auth.TokenEntry;
import io.rdmamon.collector.web.JsonReplies;
import io.rdmamon.collector.web.Routes;
import io.vertx.core.Future;
import io.vertx.core.http.HttpHeaders;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;

import java.util.EnumSet;
import java.util.function.Function;

/**
 * {@code /api/probes}: start (POST, operator), list (GET), one probe (GET), cancel (DELETE, operator).
 * The read routes rely on the router's {@code /api/*} viewer check. Shapes in docs/probes.md.
 */
public final class ProbeApi implements Routes {
    public static final String PATH = "/api/probes";
    /** A probe request is a few hundred bytes; anything much larger is not one. */
    public static final int MAX_BODY_BYTES = 16 * 1024;
    private final ProbeOrchestrator probes;
    private final TokenAuthenticator auth;
    private final ProbeConfig config;
    private final Function<ProbeRequest, Future<Void>> prepare;

    public ProbeApi(ProbeOrchestrator probes, TokenAuthenticator auth, ProbeConfig config) {
        this(probes, auth, config, request -> Future.succeededFuture());
    }

    /** {@code prepare}: learns what the orchestrator needs of endpoints another replica holds, before the start. */
    public ProbeApi(ProbeOrchestrator probes, TokenAuthenticator auth, ProbeConfig config,
                    Function<ProbeRequest, Future<Void>> prepare) {
        this.probes = probes;
        this.auth = auth;
        this.config = config;
        this.prepare = prepare;
    }

    @Override
    public void mount(Router router) {
        // Vert.x wants the body handler first on a route; the bounded body of a refused caller is simply dropped
        router.post(PATH).handler(BodyHandler.create(false).setBodyLimit(MAX_BODY_BYTES))
                .handler(auth.requireOperator((ctx, refusal) -> probes.refused(
                        requester(ctx, EnumSet.allOf(Role.class)), refusal.status(), refusal.error())))
                .handler(this::start);
        router.get(PATH).handler(ctx -> JsonReplies.ok(ctx, probes.list()));
        router.get(PATH + "/:id").handler(ctx -> probes.get(ctx.pathParam("id")).ifPresentOrElse(
                probe -> JsonReplies.ok(ctx, probe),
                () -> error(ctx, new ProbeRefused(404, "unknown probe '" + ctx.pathParam("id") + "'"))));
        router.delete(PATH + "/:id").handler(auth.requireOperator()).handler(this::cancel);
    }

    private void start(RoutingContext ctx) {
        Requester who = requester(ctx, EnumSet.of(Role.OPERATOR));
        ProbeRequest request;
        try {
            request = ProbeRequest.parse(ctx.body().buffer() == null ? new byte[0] : ctx.body().buffer().getBytes(),
                    config.maxDurationSeconds());
        } catch (ProbeRefused e) {
            refuse(ctx, who, e);
            return;
        }
        prepare.apply(request).onComplete(prepared -> {
            try {
                JsonReplies.send(ctx, 202, probes.start(request, who));
            } catch (ProbeRefused e) {
                error(ctx, e); // audited by the orchestrator with the request
            }
        });
    }

    private void cancel(RoutingContext ctx) {
        try {
            JsonReplies.ok(ctx, probes.cancel(ctx.pathParam("id"), requester(ctx, EnumSet.of(Role.OPERATOR))));
        } catch (ProbeRefused e) {
            error(ctx, e);
        }
    }

    private void refuse(RoutingContext ctx, Requester who, ProbeRefused e) {
        probes.refused(who, e.status(), e.getMessage());
        error(ctx, e);
    }

    private Requester requester(RoutingContext ctx, EnumSet<Role> roles) {
        TokenEntry token = auth.authenticate(ctx.request().getHeader(HttpHeaders.AUTHORIZATION), roles).orElse(null);
        return Requester.of(token, ctx.request().remoteAddress() == null ? null : ctx.request().remoteAddress().hostAddress());
    }

    private static void error(RoutingContext ctx, ProbeRefused e) {
        if (e.retryAfterSeconds() != null) {
            ctx.response().putHeader("Retry-After", Long.toString(e.retryAfterSeconds()));
        }
        JsonReplies.error(ctx, e.status(), e.getMessage());
    }
}
