package io.rdmamon.collector.http;

import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.rdmamon.collector.web.JsonReplies;
import io.vertx.core.Context;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.net.impl.ConnectionBase;

import java.time.Duration;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * Bounds what an HTTP/1.1 connection may hold without doing its part. Vert.x's idle timeout (set by the verticle)
 * counts only whole HTTP messages, body chunks and WebSocket frames, not stray bytes, so it already closes a
 * kept-alive connection that trickles its next request's headers; what it cannot see is a connection that does
 * move whole messages, only too slowly, or that has been slow from its first byte. This guard adds:
 * <ul>
 *   <li>a new connection must deliver a complete request (headers and body) within {@code requestTimeout};</li>
 *   <li>a request's body must be complete within {@code requestTimeout} of its headers (a body trickled in
 *       small chunks resets the idle timeout at every chunk);</li>
 *   <li>at most {@code maxConnections} are open at once: a further one is answered {@code 503} with a JSON
 *       error naming the limit on its first request and closed, or closed after {@link #REFUSED_GRACE} when it
 *       sends none.</li>
 * </ul>
 * While a response is in progress (a {@code /metrics} scrape, a dashboard event stream), between kept-alive
 * requests, and once a connection became a WebSocket (an agent, answered 101) the guard imposes no deadline: the
 * idle timeout and, for agents, their heartbeat timeout watch those; all of them count towards
 * {@code maxConnections}. Deadlines are checked by one periodic sweep, so a connection is closed at most a sweep
 * period (a quarter of the request timeout, at most 1 s) after its deadline. Confined to the server's event loop
 * (one verticle instance).
 */
public final class ConnectionGuard {
    /** How long a connection refused at the limit may take to send the request its 503 answers. */
    public static final Duration REFUSED_GRACE = Duration.ofSeconds(1);
    private static final System.Logger LOG = System.getLogger(ConnectionGuard.class.getName());

    private final Vertx vertx;
    private final int maxConnections;
    private final long requestTimeoutMillis;
    private final Map<HttpConnection, Tracked> open = new IdentityHashMap<>();
    private final Map<HttpConnection, Long> refused = new IdentityHashMap<>();
    private final Counter refusedCount;
    private final Counter timedOut;
    private volatile int openCount;

    /** One admitted connection: when it opened, its latest request and when that one's headers came. */
    private static final class Tracked {
        final long openedMillis;
        HttpServerRequest current;
        long requestMillis;

        Tracked(long openedMillis) {
            this.openedMillis = openedMillis;
        }
    }

    public ConnectionGuard(Vertx vertx, int maxConnections, Duration requestTimeout, PrometheusRegistry registry) {
        this.vertx = vertx;
        this.maxConnections = maxConnections;
        this.requestTimeoutMillis = requestTimeout.toMillis();
        refusedCount = Counter.builder().name("rdmamon_collector_http_connections_refused")
                .help("Connections refused because http.maxConnections were open (answered 503 where possible)")
                .register(registry);
        timedOut = Counter.builder().name("rdmamon_collector_http_connections_timed_out")
                .help("Connections closed for not delivering a complete request (or a request body) within"
                        + " http.requestTimeout").register(registry);
        GaugeWithCallback.builder().name("rdmamon_collector_http_connections")
                .help("Open HTTP connections, WebSockets included").callback(cb -> cb.call(openCount)).register(registry);
    }

    /** Starts the deadline sweep on the caller's context (the verticle's: undeploying it stops the sweep). */
    public void start() {
        long period = Math.max(50, Math.min(1000, requestTimeoutMillis / 4));
        vertx.setPeriodic(period, id -> sweep(System.currentTimeMillis()));
    }

    /** The server's connection handler. */
    public void opened(HttpConnection connection) {
        long now = System.currentTimeMillis();
        if (open.size() >= maxConnections) {
            refusedCount.inc();
            refused.put(connection, now);
            whenClosed(connection, () -> refused.remove(connection));
            return;
        }
        open.put(connection, new Tracked(now));
        openCount = open.size();
        whenClosed(connection, () -> {
            open.remove(connection);
            openCount = open.size();
        });
    }

    /**
     * Runs {@code forget} on this context once the connection's socket is closed. A connection's Vert.x close handler
     * is not called once it was upgraded to a WebSocket (the upgrade replaces its handler in the channel pipeline), so
     * every agent that ever connected would keep its place until the cap refused everyone; the Netty channel's close
     * future fires whatever handles the channel by then.
     */
    private static void whenClosed(HttpConnection connection, Runnable forget) {
        if (connection instanceof ConnectionBase base) {
            Context context = Vertx.currentContext();
            base.channel().closeFuture().addListener(f -> context.runOnContext(v -> forget.run()));
        } else {
            connection.closeHandler(v -> forget.run());
        }
    }

    /** Wraps the server's request handler: requests of refused connections get the 503, the others go on. */
    public Handler<HttpServerRequest> admitting(Handler<HttpServerRequest> next) {
        return request -> {
            Tracked tracked = open.get(request.connection());
            if (tracked == null) {
                refuse(request);
                return;
            }
            tracked.current = request;
            tracked.requestMillis = System.currentTimeMillis();
            next.handle(request);
        };
    }

    private void refuse(HttpServerRequest request) {
        HttpConnection connection = request.connection();
        JsonReplies.error(request.response().putHeader(HttpHeaders.CONNECTION, "close"), 503, "connection limit reached: "
                + maxConnections + " connections are open (http.maxConnections); retry later")
                .onComplete(ar -> connection.close());
    }

    private void sweep(long now) {
        // closed after the iteration: a close may run the close handler, which edits these maps, at once
        List<HttpConnection> expired = new ArrayList<>();
        refused.forEach((connection, since) -> {
            if (now - since >= REFUSED_GRACE.toMillis()) {
                expired.add(connection);
            }
        });
        open.forEach((connection, tracked) -> {
            if (overdue(tracked, now)) {
                timedOut.inc();
                LOG.log(System.Logger.Level.DEBUG, "closing connection from {0}: no complete request within {1} ms",
                        connection.remoteAddress(), requestTimeoutMillis);
                expired.add(connection);
            }
        });
        expired.forEach(HttpConnection::close);
    }

    /** Whether {@code tracked} has not delivered its first request, or its latest request's body, in time. */
    private boolean overdue(Tracked tracked, long now) {
        HttpServerRequest request = tracked.current;
        if (request == null) {
            return now - tracked.openedMillis >= requestTimeoutMillis;
        }
        return !request.isEnded() && now - tracked.requestMillis >= requestTimeoutMillis;
    }
}
