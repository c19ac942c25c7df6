package io.rdmamon.collector.web;

import io.vertx.core.Future;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;

/**
 * The collector's JSON answers: the status, {@code Content-Type: application/json} and the body, in one place;
 * every refusal has the body {@code {"error": "..."}} (docs/collector.md). Headers a reply needs beyond these
 * ({@code Retry-After}, {@code WWW-Authenticate}) are put on the response before.
 */
public final class JsonReplies {
    private JsonReplies() {
    }

    /** 200 with {@code body}. */
    public static Future<Void> ok(RoutingContext ctx, JsonObject body) {
        return send(ctx.response(), 200, body.encode());
    }

    /** {@code status} with {@code body}. */
    public static Future<Void> send(RoutingContext ctx, int status, JsonObject body) {
        return send(ctx.response(), status, body.encode());
    }

    /** {@code status} with {@code {"error": message}}. */
    public static Future<Void> error(RoutingContext ctx, int status, String message) {
        return error(ctx.response(), status, message);
    }

    /** {@code status} with {@code {"error": message}}, for callers that hold a response without a routing context. */
    public static Future<Void> error(HttpServerResponse response, int status, String message) {
        return send(response, status, new JsonObject().put("error", message).encode());
    }

    /** {@code status} with {@code json}, an encoded JSON document. */
    public static Future<Void> send(HttpServerResponse response, int status, String json) {
        return response.setStatusCode(status).putHeader(HttpHeaders.CONTENT_TYPE, "application/json").end(json);
    }
}
