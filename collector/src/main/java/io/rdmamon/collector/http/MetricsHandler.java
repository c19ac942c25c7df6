package io.rdmamon.collector.http;

import io.prometheus.metrics.expositionformats.ExpositionFormatWriter;
import io.prometheus.metrics.expositionformats.ExpositionFormats;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.vertx.core.Handler;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.ext.web.RoutingContext;

import java.io.ByteArrayOutputStream;
import java.io.IOException;

/** {@code /metrics}: Prometheus text, or OpenMetrics when the Accept header asks for it. */
public final class MetricsHandler implements Handler<RoutingContext> {
    private final PrometheusRegistry registry;
    private final ExpositionFormats formats = ExpositionFormats.init();

    public MetricsHandler(PrometheusRegistry registry) {
        this.registry = registry;
    }

    @Override
    public void handle(RoutingContext ctx) {
        ExpositionFormatWriter writer = formats.findWriter(ctx.request().getHeader(HttpHeaders.ACCEPT));
        // On a worker: at fleet scale (2,000 nodes, 1.6 M series) one exposition takes many seconds, and on
        // the event loop it would stall every agent stream for that long (docs/performance.md).
        ctx.vertx().executeBlocking(() -> {
            ByteArrayOutputStream out = new ByteArrayOutputStream(64 * 1024);
            writer.write(out, registry.scrape());
            return Buffer.buffer(out.toByteArray());
        }, false).onSuccess(body -> ctx.response().putHeader(HttpHeaders.CONTENT_TYPE, writer.getContentType()).end(body))
                .onFailure(e -> NodesApi.error(ctx, 500, "cannot build the exposition: " + e.getMessage()));
    }

    /** The exposition of {@code registry} in the Prometheus text format (for tests and the golden file). */
    public static String text(PrometheusRegistry registry) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ExpositionFormats.init().getPrometheusTextFormatWriter().write(out, registry.scrape());
        return out.toString(java.nio.charset.StandardCharsets.UTF_8);
    }
}
