package io.rdmamon.agent.workload;

import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClientAgent;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpVersion;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.net.SocketAddress;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeoutException;

/**
 * The kubelet pod-resources API's {@code List}, read-only, over its unix socket
 * (docs/reference/pingmesh-workloads-topology.md §2.1): one gRPC call —
 * HTTP/2 without TLS ("prior knowledge"), a {@code POST} of the empty request in gRPC's 5-byte framing, the answer's
 * message and its {@code grpc-status} trailer (grpc/grpc doc/PROTOCOL-HTTP2.md) — under a deadline, so a hung kubelet
 * costs one deadline, never a blocked loop. A failure names the socket and says what to do.
 *
 * <p>A hostile or broken kubelet cannot exhaust the agent: the answer's message is read as it arrives and refused as
 * soon as its length prefix claims more than {@link #MAX_MESSAGE_BYTES} ({@link GrpcMessageReader}), the decoder
 * keeps at most {@link PodResourcesDecoder.Bounds#KUBELET} pods, containers and devices, the stream is reset at the
 * deadline, and one call at most is in flight (docs/workloads.md, "Bounds on what the kubelet answers").
 */
public final class KubeletPodResources implements AutoCloseable {
    /** Where the kubelet serves the API; mount its directory, so that a kubelet restart's new socket is seen. */
    public static final String DEFAULT_SOCKET = "/var/lib/kubelet/pod-resources/kubelet.sock";
    static final String LIST = "/v1.PodResourcesLister/List";
    /** The kubelet's default largest message (grpc-go's 4 MiB is raised to 16 MiB for this API). */
    private static final int MAX_MESSAGE_BYTES = 16 << 20;
    private static final int GRPC_OK = 0;
    /** HTTP/2's CANCEL error code (RFC 9113 §7), what gRPC sends when a call is given up. */
    private static final long CANCEL = 0x8;

    private final Path socket;
    private final Duration deadline;
    private final HttpClientAgent client;
    private final Vertx vertx;
    private Future<List<PodResourcesDecoder.AssignedDevice>> inFlight;

    public KubeletPodResources(Vertx vertx, Path socket, Duration deadline) {
        this.vertx = vertx;
        this.socket = socket;
        this.deadline = deadline;
        this.client = vertx.createHttpClient(new HttpClientOptions().setProtocolVersion(HttpVersion.HTTP_2)
                .setHttp2ClearTextUpgrade(false));
    }

    public Path socket() {
        return socket;
    }

    /**
     * Every device every container holds; fails with a message naming the socket and the cause. At most one call is
     * in flight: asked again while one is outstanding, the outstanding call's future is returned.
     */
    public synchronized Future<List<PodResourcesDecoder.AssignedDevice>> list() {
        if (inFlight == null || inFlight.isComplete()) {
            inFlight = new Call().result();
        }
        return inFlight;
    }

    /**
     * One {@code List} under the deadline. Whatever ends it first — the deadline, an answer over a bound, a broken
     * answer — resets a stream still open ({@code RST_STREAM} CANCEL, as a gRPC client does at its deadline), so the
     * kubelet stops sending and no stream outlives its call.
     */
    private final class Call {
        private final Promise<List<PodResourcesDecoder.AssignedDevice>> done = Promise.promise();
        private final long millis = deadline.toMillis();

        Future<List<PodResourcesDecoder.AssignedDevice>> result() {
            long timer = vertx.setTimer(millis, t -> done.tryFail(new TimeoutException()));
            // the socket's absence said before connecting (a stat on a worker): the usual case off Kubernetes, and
            // the fix (a mount) is clearer than ENOENT
            vertx.fileSystem().exists(socket.toString()).onComplete(exists -> {
                if (exists.failed()) {
                    done.tryFail(exists.cause());
                } else if (!exists.result()) {
                    done.tryFail(new PodResourcesException("no pod-resources socket at " + socket
                            + " (mount the kubelet's /var/lib/kubelet/pod-resources into the agent)"));
                } else if (!done.future().isComplete()) {
                    request();
                }
            });
            return done.future().onComplete(ended -> vertx.cancelTimer(timer))
                    .recover(e -> Future.failedFuture(e instanceof PodResourcesException ? e
                            : new PodResourcesException("pod-resources List on " + socket + ": " + describe(e), e)));
        }

        private void request() {
            RequestOptions options = new RequestOptions()
                    .setServer(SocketAddress.domainSocketAddress(socket.toString())).setMethod(HttpMethod.POST)
                    .setHost("localhost").setPort(80).setURI(LIST).setConnectTimeout(millis);
            client.request(options).onComplete(requested -> {
                if (requested.failed()) {
                    done.tryFail(requested.cause());
                    return;
                }
                HttpClientRequest request = requested.result();
                // also when the call failed while the request was being made: then it is reset before it is sent
                done.future().onFailure(e -> request.reset(CANCEL));
                request.putHeader("content-type", "application/grpc").putHeader("te", "trailers")
                        .putHeader("grpc-timeout", millis + "m")
                        // the empty ListPodResourcesRequest: not compressed, length 0
                        .send(Buffer.buffer(new byte[GrpcMessageReader.PREFIX_BYTES]))
                        .onSuccess(this::read)
                        .onFailure(done::tryFail);
            });
        }

        /** Reads the answer as it arrives: its message under the cap, then its status. */
        private void read(HttpClientResponse response) {
            if (response.statusCode() != 200) {
                done.tryFail(refused("HTTP " + response.statusCode()));
                return;
            }
            GrpcMessageReader message = new GrpcMessageReader(MAX_MESSAGE_BYTES);
            response.exceptionHandler(done::tryFail);
            response.handler(chunk -> {
                if (!done.future().isComplete()) {
                    try {
                        message.append(chunk);
                    } catch (IllegalArgumentException e) {
                        done.tryFail(refused(e.getMessage()));
                    }
                }
            });
            response.endHandler(end -> {
                try {
                    done.tryComplete(answer(response, message));
                } catch (PodResourcesException e) {
                    done.tryFail(e);
                } catch (RuntimeException e) {
                    // a malformed message, or one beyond the decoder's bounds
                    done.tryFail(refused(e.getMessage()));
                }
            });
        }
    }

    private PodResourcesException refused(String what) {
        return new PodResourcesException("pod-resources List on " + socket + ": " + what);
    }

    private List<PodResourcesDecoder.AssignedDevice> answer(HttpClientResponse response, GrpcMessageReader message) {
        // a call that fails at once is "trailers-only": its status comes in the headers
        MultiMap status = response.trailers().contains("grpc-status") ? response.trailers() : response.headers();
        String code = status.get("grpc-status");
        if (code == null) {
            throw refused("no grpc-status (not a gRPC server?)");
        }
        if (!code.equals(Integer.toString(GRPC_OK))) {
            String text = status.get("grpc-message");
            throw refused("gRPC status " + code
                    + (text == null ? "" : " " + URLDecoder.decode(text, StandardCharsets.UTF_8)));
        }
        return PodResourcesDecoder.listResponse(message.message());
    }

    /** What went wrong, with the fix where it is known. */
    static String describe(Throwable e) {
        String message = String.valueOf(e.getMessage());
        if (e instanceof java.util.concurrent.TimeoutException || message.startsWith("Timeout")) {
            return "no answer within the deadline (kubelet overloaded or hung)";
        }
        if (message.contains("Permission denied")) {
            return "permission denied (the socket is root's: run the agent as root or give it the socket's group)";
        }
        if (message.contains("Connection refused")) {
            return "connection refused (the kubelet is not listening: restarting?)";
        }
        return e.getClass().getSimpleName() + ": " + message;
    }

    @Override
    public void close() {
        client.close();
    }

    /** A pod-resources call that failed; the message names the socket. */
    public static final class PodResourcesException extends RuntimeException {
        PodResourcesException(String message) {
            super(message);
        }

        PodResourcesException(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
