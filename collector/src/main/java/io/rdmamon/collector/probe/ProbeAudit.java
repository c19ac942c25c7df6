package io.rdmamon.collector.probe;

import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.rdmamon.collector.web.RefusalLog;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.file.AsyncFile;
import io.vertx.core.file.OpenOptions;
import io.vertx.core.json.JsonObject;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;

/**
 * The probe audit trail: one JSON line per start, refused start and cancel, with when, what and who
 * ({@link Requester}: role, token fingerprint, address; never the token). Lines go to the logger and,
 * when configured, are appended to a file through Vert.x's asynchronous file API (writes of one
 * {@link AsyncFile} keep their order and never block the event loop).
 *
 * <p>Refusals are throttled ({@link RefusalLog}): per (detail, address) the first one of a window is written in
 * full, the rest are counted and written as one {@code refuse-summary} line ({@code count}, {@code windowMillis})
 * when the window ends, so that a client retrying a refused start cannot flood the log. Every refusal is counted
 * in {@code rdmamon_collector_probe_refusals_total{status}}. Starts and cancels are never throttled.
 */
final class ProbeAudit {
    /** (detail, address) pairs followed at once; refusals beyond are summarised under {@link RefusalLog#OTHER_PEERS}. */
    static final int MAX_REFUSAL_KEYS = 1024;
    private static final System.Logger LOG = System.getLogger(ProbeAudit.class.getName());
    private final Vertx vertx;
    private final Path file;
    private final RefusalLog refusals;
    private final Counter refusalCount;
    private AsyncFile out;

    ProbeAudit(Vertx vertx, Path file, PrometheusRegistry registry, Duration refusalWindow) {
        this.vertx = vertx;
        this.file = file;
        this.refusals = new RefusalLog(vertx, refusalWindow, MAX_REFUSAL_KEYS, this::summary);
        this.refusalCount = Counter.builder().name("rdmamon_collector_probe_refusals")
                .help("Probe starts refused (bad request, role, limits), by HTTP status; the audit log summarises floods")
                .labelNames("status").register(registry);
    }

    /** Opens the file for appending (creating it); fails naming the file when it cannot be opened. */
    Future<Void> open() {
        if (file == null) {
            return Future.succeededFuture();
        }
        return vertx.fileSystem().open(file.toString(), new OpenOptions().setAppend(true).setCreate(true).setWrite(true))
                .<Void>map(f -> {
                    out = f;
                    return null;
                }).recover(e -> Future.failedFuture(new IllegalStateException(
                        "probes.auditLog " + file + ": cannot open for appending: " + e.getMessage(), e)));
    }

    Future<Void> close() {
        return out == null ? Future.succeededFuture() : out.close();
    }

    /** Records {@code action} ({@code start}, {@code cancel}) of {@code probeId}. */
    void record(String action, String probeId, ProbeRequest request, Requester who, String detail) {
        write(line(action, probeId, request, who, detail));
    }

    /** Records a refused start with its HTTP {@code status}; written in full only if it is the first of its window. */
    void refused(int status, ProbeRequest request, Requester who, String reason) {
        refusalCount.labelValues(Integer.toString(status)).inc();
        String detail = status + " " + reason;
        if (refusals.admit(detail, who.remote())) {
            write(line("refuse", null, request, who, detail));
        }
    }

    private void summary(String detail, String remote, long count, Duration window) {
        write(line("refuse-summary", null, null, new Requester(null, null, remote), detail).put("count", count)
                .put("windowMillis", window.toMillis()));
    }

    private static JsonObject line(String action, String probeId, ProbeRequest request, Requester who, String detail) {
        long now = System.currentTimeMillis();
        JsonObject line = new JsonObject().put("time", Instant.ofEpochMilli(now).toString()).put("timeMillis", now)
                .put("action", action).put("probeId", probeId);
        if (request != null) {
            line.put("source", endpoint(request.source())).put("destination", endpoint(request.destination()))
                    .put("parameters", new JsonObject().put("sizeBytes", request.sizeBytes())
                            .put("durationSeconds", request.durationSeconds()).put("qps", request.qps())
                            .put("gidIndex", request.gidIndex()).put("bidirectional", request.bidirectional()));
        }
        return line.put("who", who.json()).put("detail", detail);
    }

    private void write(JsonObject line) {
        String text = line.encode();
        LOG.log(System.Logger.Level.INFO, "probe audit: {0}", text);
        if (out != null) {
            out.write(Buffer.buffer(text + "\n")).onFailure(e -> LOG.log(System.Logger.Level.ERROR,
                    "probe audit log {0}: write failed: {1}", file, e.getMessage()));
        }
    }

    private static JsonObject endpoint(Endpoint e) {
        return new JsonObject().put("node", e.node()).put("device", e.device()).put("port", e.port());
    }
}
