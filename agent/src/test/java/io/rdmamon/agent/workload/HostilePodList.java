package io.rdmamon.agent.workload;

import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerResponse;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Answers a hostile or broken kubelet read-only port gives to {@code /pods} (issue 34): a body far larger than the
 * agent reads, written as fast as the client takes it; and one byte a second, which no idle timeout ever trips. Both
 * stop when the client resets the connection.
 */
public final class HostilePodList {
    private static final Buffer CHUNK = Buffer.buffer(" ".repeat(64 * 1024));

    private HostilePodList() {
    }

    /**
     * Writes {@code bytes} of blanks after the start of a pod list, in 64 KiB chunks as the client's window allows,
     * counting them in {@code written}; the headers (a content-length or chunked) are the caller's.
     */
    public static void flood(HttpServerResponse response, long bytes, AtomicLong written) {
        response.write("{\"items\": [");
        floodMore(response, bytes, written);
    }

    private static void floodMore(HttpServerResponse response, long bytes, AtomicLong written) {
        long left = bytes;
        while (left > 0 && !response.writeQueueFull() && !response.closed()) {
            int size = (int) Math.min(CHUNK.length(), left);
            response.write(size == CHUNK.length() ? CHUNK : CHUNK.slice(0, size));
            written.addAndGet(size);
            left -= size;
        }
        long rest = left;
        if (rest > 0 && !response.closed()) {
            response.drainHandler(v -> floodMore(response, rest, written));
        }
    }

    /** A chunked pod list of one byte a second, until the client gives up. */
    public static void trickle(Vertx vertx, HttpServerResponse response) {
        response.setChunked(true).write("{");
        vertx.setPeriodic(1000, id -> {
            if (response.closed()) {
                vertx.cancelTimer(id);
            } else {
                response.write(" ");
            }
        });
    }
}
