package io.rdmamon.collector.web;

import io.vertx.ext.web.Router;

import java.util.Optional;

/**
 * Refuses, before any route runs, a request whose path or query holds a malformed percent-escape ({@code %} not
 * followed by two hex digits, RFC 3986 section 2.1): 400 with {@code {"error": "..."}} naming the query parameter or
 * path segment. Without it each route meets the escape where it decodes: Vert.x's decoders throw, and the request
 * ended as a 500 carrying the exception's text (query parameters) or as a 400 logged with a stack trace (path
 * parameters). Mounted first, so that no route, the authentication included, decodes such a request.
 */
public final class PercentEscapes implements Routes {
    private static final System.Logger LOG = System.getLogger(PercentEscapes.class.getName());

    @Override
    public void mount(Router router) {
        router.route().handler(ctx -> malformed(ctx.request().path(), ctx.request().query()).ifPresentOrElse(message -> {
            LOG.log(System.Logger.Level.DEBUG, "refused {0}: {1}", ctx.request().method(), message);
            JsonReplies.error(ctx, 400, message);
        }, ctx::next));
    }

    /** Why {@code rawPath} and {@code rawQuery} (as received, undecoded; the query may be null) cannot be decoded. */
    public static Optional<String> malformed(String rawPath, String rawQuery) {
        if (rawPath != null) {
            for (String segment : rawPath.split("/", -1)) {
                if (!wellFormed(segment)) {
                    return Optional.of("malformed percent-escape in path segment '" + segment + "'");
                }
            }
        }
        if (rawQuery != null) {
            for (String pair : rawQuery.split("&", -1)) {
                int equals = pair.indexOf('=');
                String name = equals < 0 ? pair : pair.substring(0, equals);
                if (!wellFormed(pair)) {
                    return Optional.of("malformed percent-escape in query parameter '" + name + "'");
                }
            }
        }
        return Optional.empty();
    }

    private static boolean wellFormed(String text) {
        for (int i = text.indexOf('%'); i >= 0; i = text.indexOf('%', i + 3)) {
            if (i + 2 >= text.length() || !hex(text.charAt(i + 1)) || !hex(text.charAt(i + 2))) {
                return false;
            }
        }
        return true;
    }

    private static boolean hex(char c) {
        return Character.digit(c, 16) >= 0 && c < 128;
    }
}
