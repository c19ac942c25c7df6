package io.rdmamon.agent.workload;

import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClientAgent;
import io.vertx.core.http.HttpClientOptions;
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
import java.util.concurrent.TimeUnit;

/**
 * The kubelet pod-resources API's {@code List}, read-only, over its unix socket (fabric-facts §2.1): one gRPC call —
 * HTTP/2 without TLS ("prior knowledge"), a {@code POST} of the empty request in gRPC's 5-byte framing, the answer's
 * message and its {@code grpc-status} trailer (grpc/grpc doc/PROTOCOL-HTTP2.md) — under a deadline, so a hung kubelet
 * costs one deadline, never a blocked loop. A failure names the socket and says what to do.
 */
public final class KubeletPodResources implements AutoCloseable {
    /** Where the kubelet serves the API; mount its directory, so that a kubelet restart's new socket is seen. */
    public static final String DEFAULT_SOCKET = "/var/lib/kubelet/pod-resources/kubelet.sock";
    static final String LIST = "/v1.PodResourcesLister/List";
    /** The kubelet's default largest message (grpc-go's 4 MiB is raised to 16 MiB for this API). */
    private static final int MAX_MESSAGE_BYTES = 16 << 20;
    private static final int GRPC_OK = 0;

    private final Path socket;
    private final Duration deadline;
    private final HttpClientAgent client;
    private final Vertx vertx;

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

    /** Every device every container holds; fails with a message naming the socket and the cause. */
    public Future<List<PodResourcesDecoder.AssignedDevice>> list() {
        // the socket's absence said before connecting (a stat on a worker): the usual case off Kubernetes, and the
        // fix (a mount) is clearer than ENOENT
        return vertx.fileSystem().exists(socket.toString()).compose(exists -> exists ? call()
                : Future.failedFuture(new PodResourcesException("no pod-resources socket at " + socket
                        + " (mount the kubelet's /var/lib/kubelet/pod-resources into the agent)")));
    }

    private Future<List<PodResourcesDecoder.AssignedDevice>> call() {
        long millis = deadline.toMillis();
        RequestOptions request = new RequestOptions().setServer(SocketAddress.domainSocketAddress(socket.toString()))
                .setMethod(HttpMethod.POST).setHost("localhost").setPort(80).setURI(LIST)
                .setConnectTimeout(millis).setIdleTimeout(millis);
        return client.request(request)
                .compose(req -> req.putHeader("content-type", "application/grpc").putHeader("te", "trailers")
                        .putHeader("grpc-timeout", millis + "m")
                        // the empty ListPodResourcesRequest: not compressed, length 0
                        .send(Buffer.buffer(new byte[5])))
                .compose(response -> response.body().map(body -> answer(response, body)))
                .timeout(millis, TimeUnit.MILLISECONDS)
                .recover(e -> Future.failedFuture(e instanceof PodResourcesException ? e
                        : new PodResourcesException("pod-resources List on " + socket + ": " + describe(e), e)));
    }

    private List<PodResourcesDecoder.AssignedDevice> answer(HttpClientResponse response, Buffer body) {
        if (response.statusCode() != 200) {
            throw new PodResourcesException("pod-resources List on " + socket + ": HTTP " + response.statusCode());
        }
        // a call that fails at once is "trailers-only": its status comes in the headers
        MultiMap status = response.trailers().contains("grpc-status") ? response.trailers() : response.headers();
        String code = status.get("grpc-status");
        if (code == null) {
            throw new PodResourcesException("pod-resources List on " + socket + ": no grpc-status (not a gRPC server?)");
        }
        if (!code.equals(Integer.toString(GRPC_OK))) {
            String message = status.get("grpc-message");
            throw new PodResourcesException("pod-resources List on " + socket + ": gRPC status " + code
                    + (message == null ? "" : " " + URLDecoder.decode(message, StandardCharsets.UTF_8)));
        }
        return PodResourcesDecoder.listResponse(message(body));
    }

    /** The one length-prefixed message of a unary answer. */
    private byte[] message(Buffer body) {
        if (body.length() < 5) {
            throw new PodResourcesException("pod-resources List on " + socket + ": answer of " + body.length()
                    + " bytes has no gRPC message");
        }
        if (body.getByte(0) != 0) {
            throw new PodResourcesException("pod-resources List on " + socket + ": compressed answer (none was asked for)");
        }
        long length = body.getUnsignedInt(1);
        if (length > MAX_MESSAGE_BYTES || length != body.length() - 5L) {
            throw new PodResourcesException("pod-resources List on " + socket + ": message length " + length
                    + " in an answer of " + body.length() + " bytes");
        }
        return body.getBytes(5, body.length());
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
