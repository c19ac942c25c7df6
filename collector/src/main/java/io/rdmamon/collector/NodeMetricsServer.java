package io.rdmamon.collector;

import io.rdmamon.collector.http.JsonReplies;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.rdmamon.collector.http.MetricsHandler;
import io.rdmamon.collector.metrics.RdmaMetrics;
import io.rdmamon.collector.store.NodeStore;
import io.rdmamon.protocol.model.HostSample;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.http.HttpServer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;

import java.time.Duration;

/**
 * An agent's own {@code /metrics} ({@code rdmamon agent --listen}), for sites that let Prometheus
 * scrape every node directly. The samples go through the collector's store and exposition, so the
 * metric names and labels are exactly the collector's.
 */
public final class NodeMetricsServer extends VerticleBase {
    private static final String AGENT_VERSION = "local";
    private final ListenAddress listen;
    private final String node;
    private final Duration interval;
    private final NodeStore store;
    private volatile int port;
    private HttpServer server;

    public NodeMetricsServer(ListenAddress listen, String node, Duration interval) {
        this.listen = listen;
        this.node = node;
        this.interval = interval;
        // one node that never expires: the agent itself decides when it stops
        this.store = new NodeStore(System::currentTimeMillis, 3, Long.MAX_VALUE, 1, 1);
        this.store.connect(node, AGENT_VERSION, interval.toMillis());
    }

    /** Publishes the agent's latest sample (any thread). */
    public void record(HostSample sample) {
        store.accept(new HostSample(node, sample.timestampMillis(), sample.devices(), sample.sources()));
    }

    @Override
    public Future<?> start() {
        Router router = Router.router(vertx);
        router.get("/metrics").handler(new MetricsHandler(new RdmaMetrics(store), new PrometheusRegistry()));
        router.get("/healthz").handler(ctx -> JsonReplies.ok(ctx, new JsonObject().put("status", "ok").put("node", node)));
        server = vertx.createHttpServer().requestHandler(router);
        return server.listen(listen.port(), listen.host()).onSuccess(s -> port = s.actualPort());
    }

    /** The bound port (useful with port 0). */
    public int port() {
        return port;
    }

    public Duration interval() {
        return interval;
    }
}
