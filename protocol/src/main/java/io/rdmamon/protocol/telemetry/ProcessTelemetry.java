package io.rdmamon.protocol.telemetry;

import io.micrometer.core.instrument.Clock;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.prometheus.metrics.core.metrics.Info;
import io.prometheus.metrics.expositionformats.ExpositionFormats;
import io.prometheus.metrics.instrumentation.jvm.ProcessMetrics;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.rdmamon.protocol.exposition.ExpositionFormat;
import io.vertx.core.Vertx;
import io.vertx.core.VertxBuilder;
import io.vertx.core.VertxOptions;
import io.vertx.micrometer.Label;
import io.vertx.micrometer.MetricsDomain;
import io.vertx.micrometer.MicrometerMetricsFactory;
import io.vertx.micrometer.MicrometerMetricsOptions;

import java.io.IOException;
import java.io.OutputStream;
import java.util.EnumSet;
import java.util.function.Predicate;

/**
 * The process's own series, the same in the collector and the agent (docs/metrics.md "Process health"): Micrometer's
 * JVM binders ({@code jvm_memory_*}, {@code jvm_gc_*}, {@code jvm_threads_*}, {@code jvm_classes_*}) and processor
 * binder ({@code system_cpu_*}, {@code process_cpu_usage}), the client library's process collector ({@code
 * process_cpu_seconds_total}, {@code process_resident_memory_bytes}, {@code process_open_fds}: the names node_exporter
 * and every Go exporter ship, which Micrometer's uptime and file-descriptor binders would spell differently and
 * collide with on {@code process_start_time_seconds}), Vert.x's own {@code vertx_*} (for a Vert.x built by {@link
 * #vertx}) and {@code rdmamon_build_info}.
 *
 * <p>One per process ({@link #process()}): these describe the JVM, not a verticle, so a test JVM running several
 * collectors shares one. Micrometer renders into a {@link PrometheusRegistry} of the prometheus-metrics client the rest
 * of the exposition uses; the {@code rdma_*} families stay the project's own renderer.
 */
public final class ProcessTelemetry {
    private static final ProcessTelemetry PROCESS = new ProcessTelemetry(BuildInfo.current());
    private static final ExpositionFormats FORMATS = ExpositionFormats.init();

    private final PrometheusRegistry registry = new PrometheusRegistry();
    private final PrometheusMeterRegistry meters;

    ProcessTelemetry(BuildInfo build) {
        meters = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT, registry, Clock.SYSTEM);
        // ProcessorMetrics' process_cpu_time_ns_total: the same as process_cpu_seconds_total, in nanoseconds
        meters.config().meterFilter(MeterFilter.denyNameStartsWith("process.cpu.time"));
        // system_cpu_count: promtool's lint refuses a gauge ending in _count, and the core count is no health figure
        meters.config().meterFilter(MeterFilter.deny(id -> id.getName().equals("system.cpu.count")));
        new JvmMemoryMetrics().bindTo(meters);
        // its GC notification listener lives as long as the process, as this registry does
        new JvmGcMetrics().bindTo(meters);
        new JvmThreadMetrics().bindTo(meters);
        new ClassLoaderMetrics().bindTo(meters);
        new ProcessorMetrics().bindTo(meters);
        ProcessMetrics.builder().register(registry);
        Info.builder().name("rdmamon_build_info").help("The rdmamon build and the Java runtime running it, value 1")
                .labelNames("version", "revision", "java").register(registry)
                .addLabelValues(build.version(), build.revision(), build.java());
    }

    /** This process's. */
    public static ProcessTelemetry process() {
        return PROCESS;
    }

    /** Where the process's own meters go: the event-loop delay, the agent's source durations, ... */
    public MeterRegistry meters() {
        return meters;
    }

    /** A Vert.x with {@code options} reporting its {@code vertx_*} series here. */
    public Vertx vertx(VertxOptions options) {
        return builder(options).build();
    }

    /**
     * A Vert.x builder with {@code options} reporting here, with bounded labels: HTTP method and status code, never the
     * path or the remote address (one series per agent or per URL would grow with the fleet), pool type and name, the
     * event bus's side and failure but not its addresses (some name a node). Raw TCP and UDP metrics are off: every
     * connection rdmamon opens is HTTP or WebSocket, counted there.
     */
    public VertxBuilder builder(VertxOptions options) {
        SharedVertxGauges.install();
        MicrometerMetricsOptions metrics = new MicrometerMetricsOptions().setEnabled(true)
                .setLabels(EnumSet.of(Label.HTTP_METHOD, Label.HTTP_CODE, Label.POOL_TYPE, Label.POOL_NAME,
                        Label.EB_SIDE, Label.EB_FAILURE))
                .addDisabledMetricsCategory(MetricsDomain.NET_SERVER)
                .addDisabledMetricsCategory(MetricsDomain.NET_CLIENT)
                .addDisabledMetricsCategory(MetricsDomain.DATAGRAM_SOCKET);
        return Vertx.builder().with(new VertxOptions(options).setMetricsOptions(metrics))
                .withMetrics(new MicrometerMetricsFactory(meters));
    }

    /** The families whose registry name (without {@code _total} / {@code _info}) {@code names} accepts. */
    public MetricSnapshots scrape(Predicate<String> names) {
        return registry.scrape(names);
    }

    /** {@code others} and the families here {@code names} accepts, as one exposition (one {@code # EOF}). */
    public MetricSnapshots scrapeWith(MetricSnapshots others, Predicate<String> names) {
        MetricSnapshots.Builder all = MetricSnapshots.builder();
        others.forEach(all::metricSnapshot);
        scrape(names).forEach(all::metricSnapshot);
        return all.build();
    }

    /** Those families in {@code format}, with the format's end ({@code # EOF} for OpenMetrics). */
    public void write(OutputStream out, ExpositionFormat format, Predicate<String> names) throws IOException {
        (format == ExpositionFormat.OPENMETRICS ? FORMATS.getOpenMetricsTextFormatWriter()
                : FORMATS.getPrometheusTextFormatWriter()).write(out, scrape(names));
    }
}
