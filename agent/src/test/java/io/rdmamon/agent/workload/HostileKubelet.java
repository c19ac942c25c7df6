package io.rdmamon.agent.workload;

import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.http.StreamResetException;
import io.vertx.core.net.SocketAddress;
import io.rdmamon.protocol.testing.Waits;

import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A kubelet that answers {@code List} well (no pods) until {@link #turnHostile()}, then with what no gRPC library
 * writes: a 5-byte message prefix claiming {@code claimedLength} bytes, then data without end — as fast as HTTP/2 flow
 * control lets it ({@link Pace#FLOOD}), or a byte every few milliseconds ({@link Pace#TRICKLE}) — until the client
 * resets the stream. An HTTP/2 server without TLS on a unix socket, as the kubelet serves the API; it counts what it
 * wrote and the resets it saw.
 */
final class HostileKubelet implements AutoCloseable {
    enum Pace { FLOOD, TRICKLE }

    private static final Buffer FLOOD_CHUNK = Buffer.buffer(new byte[16 << 10]);
    private static final Buffer TRICKLE_CHUNK = Buffer.buffer(new byte[1]);
    private static final long TRICKLE_EVERY_MILLIS = 20;

    /** Bytes handed to the HTTP/2 stream, the prefix included. */
    final AtomicLong written = new AtomicLong();
    /** The {@code RST_STREAM}s the client sent. */
    final AtomicLong resets = new AtomicLong();
    private final Vertx vertx;
    private final long claimedLength;
    private final Pace pace;
    private final HttpServer server;
    private volatile boolean hostile;

    HostileKubelet(Vertx vertx, Path socket, long claimedLength, Pace pace) throws Exception {
        this.vertx = vertx;
        this.claimedLength = claimedLength;
        this.pace = pace;
        this.server = Waits.await(vertx.createHttpServer().requestHandler(this::answer)
                .listen(SocketAddress.domainSocketAddress(socket.toString())));
    }

    /** From now on answers are hostile; the ones before let a test connect first (a short deadline may not). */
    void turnHostile() {
        hostile = true;
    }

    private void answer(HttpServerRequest request) {
        HttpServerResponse response = request.response();
        if (!hostile) {
            // the empty ListPodResourcesResponse and status OK
            response.putHeader("content-type", "application/grpc").putTrailer("grpc-status", "0")
                    .end(Buffer.buffer(new byte[5]));
            return;
        }
        boolean[] reset = {false};
        response.exceptionHandler(e -> {
            if (e instanceof StreamResetException && !reset[0]) {
                reset[0] = true;
                resets.incrementAndGet();
            }
        });
        response.putHeader("content-type", "application/grpc");
        Buffer prefix = Buffer.buffer().appendByte((byte) 0).appendUnsignedInt(claimedLength);
        write(response, prefix);
        if (pace == Pace.FLOOD) {
            flood(response, reset);
        } else {
            vertx.setPeriodic(TRICKLE_EVERY_MILLIS, timer -> {
                if (reset[0]) {
                    vertx.cancelTimer(timer);
                } else {
                    write(response, TRICKLE_CHUNK);
                }
            });
        }
    }

    /** Writes while HTTP/2 flow control has room, and again when the client has read. */
    private void flood(HttpServerResponse response, boolean[] reset) {
        while (!reset[0] && !response.writeQueueFull()) {
            write(response, FLOOD_CHUNK);
        }
        if (!reset[0]) {
            response.drainHandler(drained -> flood(response, reset));
        }
    }

    private void write(HttpServerResponse response, Buffer chunk) {
        response.write(chunk);
        written.addAndGet(chunk.length());
    }

    @Override
    public void close() throws Exception {
        Waits.await(server.close());
    }
}
