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
        ByteArrayOutputStream out = new ByteArrayOutputStream(64 * 1024);
        try {
            writer.write(out, registry.scrape());
        } catch (IOException | RuntimeException e) {
            NodesApi.error(ctx, 500, "cannot build the exposition: " + e.getMessage());
            return;
        }
        ctx.response().putHeader(HttpHeaders.CONTENT_TYPE, writer.getContentType()).end(Buffer.buffer(out.toByteArray()));
    }

    /** The exposition of {@code registry} in the Prometheus text format (for tests and the golden file). */
    public static String text(PrometheusRegistry registry) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ExpositionFormats.init().getPrometheusTextFormatWriter().write(out, registry.scrape());
        return out.toString(java.nio.charset.StandardCharsets.UTF_8);
    }
}
