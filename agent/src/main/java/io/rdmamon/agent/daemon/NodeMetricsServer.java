package io.rdmamon.agent.daemon;

import io.rdmamon.protocol.exposition.ExpositionFormat;
import io.rdmamon.protocol.exposition.ExpositionGzip;
import io.rdmamon.protocol.exposition.MetricSelection;
import io.rdmamon.protocol.model.HostSample;
import io.rdmamon.protocol.net.HostPort;
import io.rdmamon.protocol.telemetry.ProcessTelemetry;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonObject;

import java.time.Duration;

/**
 * An agent's own {@code /metrics} and {@code /healthz} ({@code rdmamon agent --listen}), for sites that let
 * Prometheus scrape every node directly. The body is the node's {@link NodeExposition} with the process's own
 * families ({@code process_*}, {@code jvm_*}, {@code vertx_*}, {@code rdmamon_build_info}): Prometheus text, or
 * OpenMetrics when the Accept header asks for it, gzip when the scraper accepts it, as the collector's
 * {@code /metrics}. It is rendered at most once per sample: on the daemon's worker when the sample before
 * was scraped the same way, so that a scrape between samples answers the cached bytes from the event loop;
 * otherwise by the first scrape, on a worker (also for a way of asking not seen before, or a stale node).
 */
public final class NodeMetricsServer extends VerticleBase {
    private final HostPort listen;
    private final String node;
    private final NodeExposition exposition;
    private volatile int port;

    public NodeMetricsServer(HostPort listen, String node, Duration interval) {
        this(listen, node, interval, MetricSelection.FULL);
    }

    /** Serving only the families {@code metrics} includes ({@code --metrics}). */
    public NodeMetricsServer(HostPort listen, String node, Duration interval, MetricSelection metrics) {
        this.listen = listen;
        this.node = node;
        this.exposition = new NodeExposition(node, interval, System::currentTimeMillis, metrics,
                ProcessTelemetry.process());
    }

    /** Publishes the agent's latest sample; renders it when the last one was scraped (CPU work: call it on a worker). */
    public void record(HostSample sample) {
        exposition.record(sample);
    }

    @Override
    public Future<?> start() {
        HttpServer server = vertx.createHttpServer().requestHandler(this::handle);
        return server.listen(listen.port(), listen.host()).onSuccess(s -> port = s.actualPort());
    }

    /** Exposition bodies built so far (tests: a scrape between samples builds none). */
    long bodiesBuilt() {
        return exposition.bodiesBuilt();
    }

    /** The bound port (useful with port 0). */
    public int port() {
        return port;
    }

    private void handle(HttpServerRequest request) {
        String path = request.path();
        if (!path.equals("/metrics") && !path.equals("/healthz")) {
            error(request, 404, "no such path: " + path + " (this agent serves /metrics and /healthz)");
        } else if (request.method() != HttpMethod.GET) {
            error(request, 405, request.method() + " " + path + ": only GET");
        } else if (path.equals("/healthz")) {
            request.response().putHeader(HttpHeaders.CONTENT_TYPE, "application/json")
                    .end(new JsonObject().put("status", "ok").put("node", node).encode());
        } else {
            metrics(request);
        }
    }

    private void metrics(HttpServerRequest request) {
        NodeExposition.Variant variant = NodeExposition.Variant.of(
                ExpositionFormat.forAccept(request.getHeader(HttpHeaders.ACCEPT)),
                ExpositionGzip.accepted(request.getHeader(HttpHeaders.ACCEPT_ENCODING)));
        byte[] cached = exposition.cachedBody(variant);
        if (cached != null) {
            respond(request, variant, cached);
            return;
        }
        vertx.executeBlocking(() -> exposition.body(variant), false)
                .onSuccess(body -> respond(request, variant, body))
                .onFailure(e -> error(request, 500, "cannot build the exposition: " + e.getMessage()));
    }

    private static void respond(HttpServerRequest request, NodeExposition.Variant variant, byte[] body) {
        request.response().putHeader(HttpHeaders.CONTENT_TYPE, variant.format().contentType())
                .putHeader(HttpHeaders.VARY, HttpHeaders.ACCEPT_ENCODING);
        if (variant.gzip()) {
            request.response().putHeader(HttpHeaders.CONTENT_ENCODING, "gzip");
        }
        request.response().end(Buffer.buffer(body));
    }

    private static void error(HttpServerRequest request, int status, String message) {
        request.response().setStatusCode(status).putHeader(HttpHeaders.CONTENT_TYPE, "application/json")
                .end(new JsonObject().put("error", message).encode());
    }
}
