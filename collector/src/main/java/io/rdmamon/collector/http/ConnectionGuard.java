package io.rdmamon.collector.http;

import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonObject;

import java.time.Duration;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * Bounds what an HTTP/1.1 connection may hold without doing its part, beyond Vert.x's idle timeout (which a
 * client defeats by sending a byte now and then):
 * <ul>
 *   <li>a new connection must deliver a complete request (headers and body) within {@code requestTimeout};</li>
 *   <li>a request's body must be complete within {@code requestTimeout} of its headers;</li>
 *   <li>after a response, a kept-alive connection must deliver its next complete request within
 *       {@code idleTimeout};</li>
 *   <li>at most {@code maxConnections} are open at once: a further one is answered {@code 503} with a JSON
 *       error naming the limit on its first request and closed, or closed after {@link #REFUSED_GRACE} when it
 *       sends none.</li>
 * </ul>
 * While a response is in progress (a {@code /metrics} scrape, a dashboard event stream) the guard imposes no
 * deadline, and once a connection became a WebSocket (an agent, answered 101) it leaves it to the agent
 * heartbeat timeout and Vert.x's idle timeout; both still count towards {@code maxConnections}. Deadlines are
 * checked by one periodic sweep, so a connection is closed at most a sweep period (a quarter of the shorter
 * timeout, at most 1 s) after its deadline. Confined to the server's event loop (one verticle instance).
 */
public final class ConnectionGuard {
    /** How long a connection refused at the limit may take to send the request its 503 answers. */
    public static final Duration REFUSED_GRACE = Duration.ofSeconds(1);
    private static final System.Logger LOG = System.getLogger(ConnectionGuard.class.getName());

    private final Vertx vertx;
    private final int maxConnections;
    private final long requestTimeoutMillis;
    private final long idleTimeoutMillis;
    private final Map<HttpConnection, Tracked> open = new IdentityHashMap<>();
    private final Map<HttpConnection, Long> refused = new IdentityHashMap<>();
    private final Counter refusedCount;
    private final Counter timedOut;
    private volatile int openCount;

    /** One admitted connection: when it opened, its latest request, and since when it has waited for the next. */
    private static final class Tracked {
        final long openedMillis;
        HttpServerRequest current;
        long requestMillis;
        long waitingSinceMillis = -1;
        boolean upgraded;

        Tracked(long openedMillis) {
            this.openedMillis = openedMillis;
        }
    }

    public ConnectionGuard(Vertx vertx, int maxConnections, Duration requestTimeout, Duration idleTimeout,
                           PrometheusRegistry registry) {
        this.vertx = vertx;
        this.maxConnections = maxConnections;
        this.requestTimeoutMillis = requestTimeout.toMillis();
        this.idleTimeoutMillis = idleTimeout.toMillis();
        refusedCount = Counter.builder().name("rdmamon_collector_http_connections_refused")
                .help("Connections refused because http.maxConnections were open (answered 503 where possible)")
                .register(registry);
        timedOut = Counter.builder().name("rdmamon_collector_http_connections_timed_out")
                .help("Connections closed for not delivering a complete request in time: request = the first one"
                        + " (or a body) within http.requestTimeout, keep_alive = the next one within http.idleTimeout")
                .labelNames("phase").register(registry);
        GaugeWithCallback.builder().name("rdmamon_collector_http_connections")
                .help("Open HTTP connections, WebSockets included").callback(cb -> cb.call(openCount)).register(registry);
    }

    /** Starts the deadline sweep on the caller's context (the verticle's: undeploying it stops the sweep). */
    public void start() {
        long period = Math.max(50, Math.min(1000, Math.min(requestTimeoutMillis, idleTimeoutMillis) / 4));
        vertx.setPeriodic(period, id -> sweep(System.currentTimeMillis()));
    }

    /** The server's connection handler. */
    public void opened(HttpConnection connection) {
        long now = System.currentTimeMillis();
        if (open.size() >= maxConnections) {
            refusedCount.inc();
            refused.put(connection, now);
            connection.closeHandler(v -> refused.remove(connection));
            return;
        }
        open.put(connection, new Tracked(now));
        openCount = open.size();
        connection.closeHandler(v -> {
            open.remove(connection);
            openCount = open.size();
        });
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
            tracked.waitingSinceMillis = -1;
            next.handle(request);
        };
    }

    private void refuse(HttpServerRequest request) {
        HttpConnection connection = request.connection();
        request.response().setStatusCode(503).putHeader(HttpHeaders.CONTENT_TYPE, "application/json")
                .putHeader(HttpHeaders.CONNECTION, "close")
                .end(new JsonObject().put("error", "connection limit reached: " + maxConnections
                        + " connections are open (http.maxConnections); retry later").encode())
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
            String phase = overdue(tracked, now);
            if (phase != null) {
                timedOut.labelValues(phase).inc();
                LOG.log(System.Logger.Level.DEBUG, "closing connection from {0}: no complete request in time ({1})",
                        connection.remoteAddress(), phase);
                expired.add(connection);
            }
        });
        expired.forEach(HttpConnection::close);
    }

    /** The phase whose deadline {@code tracked} missed ({@code request}, {@code keep_alive}), or null. */
    private String overdue(Tracked tracked, long now) {
        HttpServerRequest request = tracked.current;
        if (tracked.upgraded) {
            return null;
        }
        if (request == null) {
            return now - tracked.openedMillis >= requestTimeoutMillis ? "request" : null;
        }
        if (!request.isEnded()) {
            return now - tracked.requestMillis >= requestTimeoutMillis ? "request" : null;
        }
        if (!request.response().ended()) {
            return null; // the answer is being produced or streamed: the guard has no say
        }
        if (request.response().getStatusCode() == 101) {
            tracked.upgraded = true; // a WebSocket now: agent heartbeats and the idle timeout watch it
            return null;
        }
        if (tracked.waitingSinceMillis < 0) {
            tracked.waitingSinceMillis = now;
        }
        return now - tracked.waitingSinceMillis >= idleTimeoutMillis ? "keep_alive" : null;
    }
}
