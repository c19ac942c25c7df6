package io.rdmamon.collector.probe;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.file.AsyncFile;
import io.vertx.core.file.OpenOptions;
import io.vertx.core.json.JsonObject;

import java.nio.file.Path;
import java.time.Instant;

/**
 * The probe audit trail: one JSON line per start, refused start and cancel, with when, what and who
 * ({@link Requester}: role, token fingerprint, address; never the token). Lines go to the logger and,
 * when configured, are appended to a file through Vert.x's asynchronous file API (writes of one
 * {@link AsyncFile} keep their order and never block the event loop).
 */
final class ProbeAudit {
    private static final System.Logger LOG = System.getLogger(ProbeAudit.class.getName());
    private final Vertx vertx;
    private final Path file;
    private AsyncFile out;

    ProbeAudit(Vertx vertx, Path file) {
        this.vertx = vertx;
        this.file = file;
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

    /** Records {@code action} ({@code start}, {@code refuse}, {@code cancel}) of {@code probeId} (null when refused). */
    void record(String action, String probeId, ProbeRequest request, Requester who, String detail) {
        long now = System.currentTimeMillis();
        JsonObject line = new JsonObject().put("time", Instant.ofEpochMilli(now).toString()).put("timeMillis", now)
                .put("action", action).put("probeId", probeId);
        if (request != null) {
            line.put("source", endpoint(request.source())).put("destination", endpoint(request.destination()))
                    .put("parameters", new JsonObject().put("sizeBytes", request.sizeBytes())
                            .put("durationSeconds", request.durationSeconds()).put("qps", request.qps())
                            .put("gidIndex", request.gidIndex()).put("bidirectional", request.bidirectional()));
        }
        line.put("who", who.json()).put("detail", detail);
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
