package io.rdmamon.collector.http;

import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.expositionformats.ExpositionFormatWriter;
import io.prometheus.metrics.expositionformats.ExpositionFormats;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.rdmamon.collector.metrics.RdmaMetrics;
import io.rdmamon.collector.web.JsonReplies;
import io.rdmamon.protocol.exposition.ExpositionFormat;
import io.rdmamon.protocol.exposition.ExpositionGzip;
import io.rdmamon.protocol.exposition.MetricSelection;
import io.rdmamon.protocol.exposition.ParallelGzipOutputStream;
import io.rdmamon.protocol.telemetry.ProcessTelemetry;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.WorkerExecutor;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.RoutingContext;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Executor;
import java.util.function.Predicate;

/**
 * {@code /metrics}: Prometheus text, or OpenMetrics when the Accept header asks for it; gzip when the
 * scraper accepts it (Prometheus does). The {@code rdma_*} families come from {@link RdmaMetrics}, then
 * the registry's own ({@code rdmamon_*}: collector self metrics) and the process's ({@link ProcessTelemetry}:
 * {@code process_*}, {@code jvm_*}, {@code vertx_*}, {@code rdmamon_build_info}), written by the client library.
 *
 * <p>At fleet scale the body is 150 MiB of text (docs/performance.md), so it is rendered, compressed and
 * streamed on a worker, chunk by chunk, never on the event loop and never whole in memory. The work is spread
 * over a pool of one thread per core beside that worker: the nodes' new samples are rendered in one slice per
 * core ({@link RdmaMetrics#write(OutputStream, ExpositionFormat, Executor)}), and gzip (what Prometheus asks for)
 * is deflated in 1 MiB blocks ({@link ParallelGzipOutputStream}), which on one thread took twice as long as the
 * rendering (docs/performance.md).
 */
public final class MetricsHandler implements Handler<RoutingContext> {
    private static final ExpositionFormats FORMATS = ExpositionFormats.init();
    /** Shared by name: every verticle's handler renders and deflates on the same threads; closed with the verticle. */
    private static final String EXPOSITION_POOL = "rdmamon-exposition";
    private static final int CORES = Runtime.getRuntime().availableProcessors();
    /** Blocks queued or deflating per scrape: enough to keep every core busy while the renderer fills the next. */
    private static final int GZIP_BLOCKS_IN_FLIGHT = 2 * CORES;
    private final RdmaMetrics rdma;
    private final PrometheusRegistry registry;
    private final ProcessTelemetry process;
    /** Up to the scrape timeout Prometheus uses by default (10 s) and past it: the self alert's evidence. */
    private final Histogram renderSeconds;
    private WorkerExecutor expositionPool;

    public MetricsHandler(RdmaMetrics rdma, PrometheusRegistry registry, ProcessTelemetry process) {
        this.rdma = rdma;
        this.registry = registry;
        this.process = process;
        this.renderSeconds = Histogram.builder().name("rdmamon_collector_metrics_render_seconds")
                .help("Time to render, compress and send one /metrics body").classicOnly()
                .classicUpperBounds(0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30).register(registry);
    }

    @Override
    public void handle(RoutingContext ctx) {
        ExpositionFormat format = ExpositionFormat.forAccept(ctx.request().getHeader(HttpHeaders.ACCEPT));
        boolean gzip = ExpositionGzip.accepted(ctx.request().getHeader(HttpHeaders.ACCEPT_ENCODING));
        HttpServerResponse response = ctx.response().setChunked(true)
                .putHeader(HttpHeaders.CONTENT_TYPE, writer(format).getContentType());
        if (gzip) {
            response.putHeader(HttpHeaders.CONTENT_ENCODING, "gzip");
        }
        response.putHeader(HttpHeaders.VARY, HttpHeaders.ACCEPT_ENCODING);
        ResponseOutputStream body = new ResponseOutputStream(ctx.vertx().getOrCreateContext(), response);
        Executor pool = expositionPool(ctx.vertx());
        long start = System.nanoTime();
        ctx.vertx().executeBlocking(() -> {
            Throwable failure = null;
            try (OutputStream out = gzip ? new ParallelGzipOutputStream(body, pool, GZIP_BLOCKS_IN_FLIGHT) : body) {
                write(out, format, rdma, registry, process, pool);
            } catch (IOException | RuntimeException e) {
                failure = e;
            }
            renderSeconds.observe((System.nanoTime() - start) / 1e9);
            body.finish(failure, e -> {
                if (response.headWritten()) {
                    // part of the body is out: cut the connection so that the scraper sees an error, not a short exposition
                    response.reset();
                } else {
                    response.headers().remove(HttpHeaders.CONTENT_ENCODING);
                    JsonReplies.error(ctx, 500, "cannot build the exposition: " + e.getMessage());
                }
            });
            return null;
        }, false);
    }

    /** The shared exposition pool's threads as an Executor (the handler runs on its event loop only). */
    private Executor expositionPool(Vertx vertx) {
        if (expositionPool == null) {
            expositionPool = vertx.createSharedWorkerExecutor(EXPOSITION_POOL, CORES);
        }
        WorkerExecutor pool = expositionPool;
        return task -> pool.executeBlocking(() -> {
            task.run();
            return null;
        }, false);
    }

    /** The whole exposition: the {@code rdma_*} families, then the registry's (with OpenMetrics' {@code # EOF}). */
    public static void write(OutputStream out, ExpositionFormat format, RdmaMetrics rdma, PrometheusRegistry registry)
            throws IOException {
        write(out, format, rdma, registry, null, Runnable::run);
    }

    /**
     * The whole exposition, the nodes' new samples rendered partly on {@code renderers}; with the {@code process}'s own
     * families unless null (the golden file pins the rest, whose values do not move on their own).
     */
    public static void write(OutputStream out, ExpositionFormat format, RdmaMetrics rdma, PrometheusRegistry registry,
                             ProcessTelemetry process, Executor renderers) throws IOException {
        rdma.write(out, format, renderers);
        MetricSelection selection = rdma.selection();
        Predicate<String> names = selection.isFull() ? name -> true : selection::includesRegistryName;
        MetricSnapshots own = registry.scrape(names);
        writer(format).write(out, process == null ? own : process.scrapeWith(own, names));
    }

    /** The exposition in the Prometheus text format (for tests and the golden file). */
    public static String text(RdmaMetrics rdma, PrometheusRegistry registry) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        write(out, ExpositionFormat.PROMETHEUS_TEXT, rdma, registry);
        return out.toString(StandardCharsets.UTF_8);
    }

    private static ExpositionFormatWriter writer(ExpositionFormat format) {
        return format == ExpositionFormat.OPENMETRICS ? FORMATS.getOpenMetricsTextFormatWriter()
                : FORMATS.getPrometheusTextFormatWriter();
    }
}
