package io.rdmamon.agent.workload;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;

import java.net.URI;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

/**
 * The kubelet's pod list ({@code GET /pods} on its read-only port, a {@code v1.PodList}): the names behind the pod
 * UIDs and container ids that cgroups carry and pod-resources lacks (fabric-facts §2.1). Read-only, under a deadline;
 * a failure names the URL.
 */
public final class KubeletPodList implements AutoCloseable {
    private final URI url;
    private final Duration deadline;
    private final WebClient client;

    /** A pod as the list names it, with its containers' names by id (the runtime's prefix removed). */
    public record Pod(String namespace, String name, Map<String, String> containersById) {
    }

    /** @throws IllegalArgumentException when {@code url} is not an http URL with a host */
    public KubeletPodList(Vertx vertx, URI url, Duration deadline) {
        if (!"http".equals(url.getScheme()) || url.getHost() == null) {
            throw new IllegalArgumentException("kubelet pod list " + url + ": give an http://HOST:PORT/pods URL (the"
                    + " kubelet's read-only port, 10255)");
        }
        this.url = url;
        this.deadline = deadline;
        this.client = WebClient.create(vertx, new WebClientOptions().setConnectTimeout((int) deadline.toMillis()));
    }

    public URI url() {
        return url;
    }

    /** Every pod by UID; fails with a message naming the URL. */
    public Future<Map<String, Pod>> list() {
        int port = url.getPort() > 0 ? url.getPort() : 80;
        String path = url.getRawPath() == null || url.getRawPath().isEmpty() ? "/pods" : url.getRawPath();
        return client.get(port, url.getHost(), path).timeout(deadline.toMillis()).send()
                .map(response -> {
                    if (response.statusCode() != 200) {
                        throw new IllegalStateException("HTTP " + response.statusCode());
                    }
                    return pods(response.bodyAsJsonObject());
                })
                .recover(e -> Future.failedFuture(new IllegalStateException("kubelet pod list " + url + ": "
                        + KubeletPodResources.describe(e), e)));
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
