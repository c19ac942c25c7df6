package io.rdmamon.collector.probe;

import io.rdmamon.collector.auth.Role;
import io.rdmamon.collector.auth.TokenAuthenticator;
import io.rdmamon.collector.auth.TokenEntry;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;

import java.util.EnumSet;
import java.util.function.Consumer;

/**
 * {@code /api/probes}: start (POST, operator), list (GET), one probe (GET), cancel (DELETE, operator).
 * The read routes rely on the router's {@code /api/*} viewer check. Shapes in docs/probes.md.
 */
public final class ProbeApi implements Consumer<Router> {
    public static final String PATH = "/api/probes";
    /** A probe request is a few hundred bytes; anything much larger is not one. */
    public static final int MAX_BODY_BYTES = 16 * 1024;
    private final ProbeOrchestrator probes;
    private final TokenAuthenticator auth;
    private final ProbeConfig config;

    public ProbeApi(ProbeOrchestrator probes, TokenAuthenticator auth, ProbeConfig config) {
        this.probes = probes;
        this.auth = auth;
        this.config = config;
    }

    @Override
    public void accept(Router router) {
        // Vert.x wants the body handler first on a route; the bounded body of a refused caller is simply dropped
        router.post(PATH).handler(BodyHandler.create(false).setBodyLimit(MAX_BODY_BYTES))
                .handler(auth.requireOperator((ctx, refusal) -> probes.refused(
                        requester(ctx, EnumSet.allOf(Role.class)), refusal.status(), refusal.error())))
                .handler(this::start);
        router.get(PATH).handler(ctx -> json(ctx, 200, probes.list()));
        router.get(PATH + "/:id").handler(ctx -> probes.get(ctx.pathParam("id")).ifPresentOrElse(
                probe -> json(ctx, 200, probe),
                () -> error(ctx, new ProbeRefused(404, "unknown probe '" + ctx.pathParam("id") + "'"))));
        router.delete(PATH + "/:id").handler(auth.requireOperator()).handler(this::cancel);
    }

    private void start(RoutingContext ctx) {
        Requester who = requester(ctx, EnumSet.of(Role.OPERATOR));
        JsonObject body;
        try {
            body = ctx.body().length() == 0 ? null : ctx.body().asJsonObject();
        } catch (DecodeException | ClassCastException e) {
            refuse(ctx, who, new ProbeRefused(400, "body: not a JSON object: " + firstLine(e.getMessage())));
            return;
        }
        if (body == null) {
            refuse(ctx, who, new ProbeRefused(400, "body: a JSON object is required"));
            return;
        }
        ProbeRequest request;
        try {
            request = ProbeRequest.parse(body, config.maxDurationSeconds());
        } catch (ProbeRefused e) {
            refuse(ctx, who, e);
            return;
        }
        try {
            json(ctx, 202, probes.start(request, who));
        } catch (ProbeRefused e) {
            error(ctx, e); // audited by the orchestrator with the request
        }
    }

    private void cancel(RoutingContext ctx) {
        try {
            json(ctx, 200, probes.cancel(ctx.pathParam("id"), requester(ctx, EnumSet.of(Role.OPERATOR))));
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
        json(ctx, e.status(), new JsonObject().put("error", e.getMessage()));
    }

    private static void json(RoutingContext ctx, int status, JsonObject body) {
        ctx.response().setStatusCode(status).putHeader(HttpHeaders.CONTENT_TYPE, "application/json").end(body.encode());
    }

    private static String firstLine(String text) {
        return text == null ? "" : text.lines().findFirst().orElse("");
    }
}
