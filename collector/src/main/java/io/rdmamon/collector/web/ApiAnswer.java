package io.rdmamon.collector.web;

import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;

/**
 * A REST answer built apart from the HTTP exchange: the status and the encoded JSON body. The local handlers send
 * it; a replica of a cluster builds it for another replica that asked over the event bus ({@code cluster.FleetRoutes}).
 */
public record ApiAnswer(int status, String json) {
    public static ApiAnswer ok(String json) {
        return new ApiAnswer(200, json);
    }

    /** {@code status} with {@code {"error": message}}. */
    public static ApiAnswer error(int status, String message) {
        return new ApiAnswer(status, new JsonObject().put("error", message).encode());
    }

    public void send(RoutingContext ctx) {
        JsonReplies.send(ctx.response(), status, json);
    }

    /** As an event-bus message. */
    public JsonObject toMessage() {
        return new JsonObject().put("status", status).put("json", json);
    }

    public static ApiAnswer fromMessage(JsonObject message) {
        return new ApiAnswer(message.getInteger("status", 500), message.getString("json", "{}"));
    }
}
