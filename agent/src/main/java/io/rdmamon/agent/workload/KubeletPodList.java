package io.rdmamon.agent.workload;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.concurrent.TimeoutException;

import java.net.URI;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

/**
 * The kubelet's pod list ({@code GET /pods} on its read-only port, a {@code v1.PodList}): the names behind the pod
 * UIDs and container ids that cgroups carry and pod-resources lacks (docs/reference/pingmesh-workloads-topology.md
 * §2.1). Read-only, under a deadline;
 * a failure names the URL.
 *
 * <p>The answer is bounded as it arrives: a body beyond {@link #MAX_BODY_BYTES} (announced or counted) is refused and
 * the connection reset, and so is one still unfinished at the deadline, so that a hostile or broken kubelet costs one
 * failed refresh, never the agent's heap (the DaemonSet runs it in 160 MiB).
 */
public final class KubeletPodList implements AutoCloseable {
    /**
     * Most bytes of a pod list read: a node's 110 pods (the kubelet's default maximum) list in 1 to 5 MiB, so this is
     * several times a real one, and its parsed tree (a few times the text) still fits the agent's heap.
     */
    static final int MAX_BODY_BYTES = 16 * 1024 * 1024;
    private final Vertx vertx;
    private final URI url;
    private final Duration deadline;
    private final HttpClient client;

    /** A pod as the list names it, with its containers' names by id (the runtime's prefix removed). */
    public record Pod(String namespace, String name, Map<String, String> containersById) {
    }

    /** @throws IllegalArgumentException when {@code url} is not an http URL with a host */
    public KubeletPodList(Vertx vertx, URI url, Duration deadline) {
        if (!"http".equals(url.getScheme()) || url.getHost() == null) {
            throw new IllegalArgumentException("kubelet pod list " + url + ": give an http://HOST:PORT/pods URL (the"
                    + " kubelet's read-only port, 10255)");
        }
        this.vertx = vertx;
        this.url = url;
        this.deadline = deadline;
        this.client = vertx.createHttpClient(new HttpClientOptions().setConnectTimeout((int) deadline.toMillis()));
    }

    public URI url() {
        return url;
    }

    /** Every pod by UID; fails with a message naming the URL. */
    public Future<Map<String, Pod>> list() {
        int port = url.getPort() > 0 ? url.getPort() : 80;
        String path = url.getRawPath() == null || url.getRawPath().isEmpty() ? "/pods" : url.getRawPath();
        Promise<Buffer> body = Promise.promise();
        long timer = vertx.setTimer(deadline.toMillis(), id -> body.tryFail(new TimeoutException(
                "Timeout: no complete answer within " + deadline.toMillis() + " ms")));
        client.request(new RequestOptions().setMethod(HttpMethod.GET).setHost(url.getHost()).setPort(port).setURI(path))
                .onFailure(body::tryFail)
                .onSuccess(request -> {
                    body.future().onFailure(e -> request.reset());
                    request.send().onFailure(body::tryFail).onSuccess(response -> read(response, body));
                });
        return body.future()
                .andThen(done -> vertx.cancelTimer(timer))
                .map(bytes -> pods(new JsonObject(bytes)))
                .recover(e -> Future.failedFuture(new IllegalStateException("kubelet pod list " + url + ": "
                        + KubeletPodResources.describe(e), e)));
    }

    /** Collects {@code response}'s body into {@code body}, refusing it once it is (or is announced) past the cap. */
    private static void read(HttpClientResponse response, Promise<Buffer> body) {
        if (response.statusCode() != 200) {
            body.tryFail(new IllegalStateException("HTTP " + response.statusCode()));
            return;
        }
        String length = response.getHeader(HttpHeaders.CONTENT_LENGTH);
        if (length != null && length.chars().allMatch(Character::isDigit) && length.length() < 19
                && Long.parseLong(length) > MAX_BODY_BYTES) {
            body.tryFail(tooLarge("announced " + length + " bytes"));
            return;
        }
        Buffer collected = Buffer.buffer();
        response.exceptionHandler(body::tryFail);
        response.handler(chunk -> {
            if (collected.length() + chunk.length() > MAX_BODY_BYTES) {
                body.tryFail(tooLarge("more than " + MAX_BODY_BYTES + " bytes arrived"));
            } else if (!body.future().isComplete()) {
                collected.appendBuffer(chunk);
            }
        });
        response.endHandler(end -> body.tryComplete(collected));
    }

    private static IllegalStateException tooLarge(String what) {
        return new IllegalStateException("answer too large (" + what + "; the agent reads at most " + MAX_BODY_BYTES
                + " bytes of a pod list)");
    }

    /**
     * The pods of a {@code v1.PodList} by UID. Container ids are {@code <runtime>://<id>} in the status
     * ({@code containerd://}, {@code cri-o://}, {@code docker://}); init containers count too (they may hold QPs).
     *
     * @throws IllegalArgumentException when the document is no pod list
     */
    static Map<String, Pod> pods(JsonObject list) {
        if (list == null || !(list.getValue("items") instanceof JsonArray items)) {
            throw new IllegalArgumentException("not a PodList (no items)");
        }
        Map<String, Pod> byUid = new HashMap<>();
        for (Object item : items) {
            if (!(item instanceof JsonObject pod) || !(pod.getValue("metadata") instanceof JsonObject metadata)
                    || !(metadata.getValue("uid") instanceof String uid)) {
                continue;
            }
            Map<String, String> containers = new HashMap<>();
            JsonObject status = pod.getJsonObject("status", new JsonObject());
            for (String field : new String[]{"containerStatuses", "initContainerStatuses"}) {
                for (Object c : status.getJsonArray(field, new JsonArray())) {
                    if (c instanceof JsonObject container && container.getValue("containerID") instanceof String id
                            && container.getValue("name") instanceof String name) {
                        int scheme = id.indexOf("://");
                        containers.put(scheme < 0 ? id : id.substring(scheme + 3), name);
                    }
                }
            }
            byUid.put(uid, new Pod(metadata.getString("namespace", ""), metadata.getString("name", uid),
                    Map.copyOf(containers)));
        }
        return Map.copyOf(byUid);
    }

    @Override
    public void close() {
        client.close();
    }
}
