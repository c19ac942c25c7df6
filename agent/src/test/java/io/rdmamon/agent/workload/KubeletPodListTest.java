package io.rdmamon.agent.workload;

import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The kubelet pod list client against a real HTTP server on loopback serving a {@code v1.PodList} as the kubelet's
 * read-only port does ({@code kubelet/pods.json}: the API's field names and the runtimes' {@code containerID}
 * scheme), and the directory naming cgroup-found pods from it.
 */
@ExtendWith(VertxExtension.class)
class KubeletPodListTest {
    private static final String UID = "1b2c3d4e-5f60-4a7b-8c9d-0e1f2a3b4c5d";
    private static final String WORKER = "4f1c2a9e0b7d3c5a8e6f1d2b3c4a5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b1c2d";
    private static final String INIT = "9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c4d3e2f1a0b9c8d7e6f5a4b3c2d1e0f9a8b";

    @TempDir
    Path root;
    private HttpServer server;
    private final AtomicReference<String> body = new AtomicReference<>();
    private final AtomicInteger status = new AtomicInteger(200);
    private final AtomicInteger requests = new AtomicInteger();
    private KubeletPodList list;

    @BeforeEach
    void setUp(Vertx vertx) throws Exception {
        try (InputStream in = getClass().getResourceAsStream("/kubelet/pods.json")) {
            body.set(new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8));
        }
        server = vertx.createHttpServer().requestHandler(request -> {
            requests.incrementAndGet();
            if (!request.path().equals("/pods")) {
                request.response().setStatusCode(404).end();
                return;
            }
            request.response().setStatusCode(status.get()).putHeader("content-type", "application/json").end(body.get());
        }).listen(0, "127.0.0.1").await(10, TimeUnit.SECONDS);
        list = new KubeletPodList(vertx, URI.create("http://127.0.0.1:" + server.actualPort() + "/pods"),
                Duration.ofSeconds(2));
    }

    @AfterEach
    void tearDown() throws Exception {
        list.close();
        server.close().await(10, TimeUnit.SECONDS);
    }

    private Map<String, KubeletPodList.Pod> pods() throws Exception {
        return list.list().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }

    @Test
    void everyPodIsKeyedByUidWithItsContainersById() throws Exception {
        Map<String, KubeletPodList.Pod> pods = pods();
        assertEquals(new KubeletPodList.Pod("ml", "train-llama-0", Map.of(WORKER, "worker", INIT, "fetch-weights")),
                pods.get(UID));
        assertEquals(new KubeletPodList.Pod("infer", "bert-7d9f", Map.of()),
                pods.get("aa11bb22-cc33-4d44-8e55-ff6677889900"), "a container not started yet has no id");
        assertEquals(2, pods.size());
    }

    @Test
    void aFailedListNamesTheUrlAndWhatWentWrong() {
        status.set(503);
        ExecutionException e = assertThrows(ExecutionException.class, this::pods);
        assertEquals("kubelet pod list " + list.url() + ": IllegalStateException: HTTP 503", e.getCause().getMessage());
        status.set(200);
        body.set("{\"kind\": \"Status\"}");
        e = assertThrows(ExecutionException.class, this::pods);
        assertTrue(e.getCause().getMessage().contains("not a PodList (no items)"), e.getCause().getMessage());
    }

    @Test
    void theDirectoryNamesAPodFoundByItsCgroupAndSaysWhyWhenItCannot(Vertx vertx) throws Exception {
        KubeletPodDirectory pods = new KubeletPodDirectory(vertx, null, list, root);
        pods.refresh().await(30, TimeUnit.SECONDS);
        assertEquals(Optional.of(new PodDirectory.PodName("ml", "train-llama-0", "worker")), pods.find(UID, WORKER));
        assertEquals(Optional.of(new PodDirectory.PodName("ml", "train-llama-0", null)), pods.find(UID, "0".repeat(64)),
                "a container the list does not name yet");
        assertEquals(Optional.empty(), pods.find("00000000-0000-4000-8000-000000000000", WORKER));
        assertEquals(KubeletPodDirectory.NOT_LISTED, pods.unknownReason());

        status.set(500);
        pods.refresh().await(30, TimeUnit.SECONDS);
        assertEquals(Optional.of(new PodDirectory.PodName("ml", "train-llama-0", "worker")), pods.find(UID, WORKER),
                "the last good list is kept");
        assertEquals("pod name unknown: kubelet pod list " + list.url() + ": IllegalStateException: HTTP 500",
                pods.unknownReason());
    }

    @Test
    void aKubeletThatDoesNotListenIsRefusedQuickly(Vertx vertx) throws Exception {
        int port = server.actualPort();
        server.close().await(10, TimeUnit.SECONDS);
        KubeletPodDirectory pods = new KubeletPodDirectory(vertx, null, list, root);
        pods.refresh().await(30, TimeUnit.SECONDS);
        assertTrue(pods.unknownReason().startsWith("pod name unknown: kubelet pod list http://127.0.0.1:" + port
                + "/pods: connection refused"), pods.unknownReason());
        server = vertx.createHttpServer().requestHandler(r -> r.response().end()).listen(0, "127.0.0.1")
                .await(10, TimeUnit.SECONDS);
    }

    /** A kubelet (or what answers on its port) announcing more than the cap: refused before a byte of it is kept. */
    @Test
    void aListAnnouncedBeyondTheCapIsRefusedAndTheConnectionReset(Vertx vertx) throws Exception {
        Promise<Void> reset = Promise.promise();
        HttpServer hostile = vertx.createHttpServer().requestHandler(request -> {
            request.connection().closeHandler(closed -> reset.tryComplete());
            request.response().putHeader("content-length", Long.toString(200L * 1024 * 1024)).write("{\"items\": [");
        }).listen(0, "127.0.0.1").await(10, TimeUnit.SECONDS);
        try (KubeletPodList hostileList = new KubeletPodList(vertx,
                URI.create("http://127.0.0.1:" + hostile.actualPort() + "/pods"), Duration.ofSeconds(30))) {
            ExecutionException e = assertThrows(ExecutionException.class,
                    () -> hostileList.list().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS));
            assertEquals("kubelet pod list " + hostileList.url() + ": IllegalStateException: answer too large (announced "
                    + 200L * 1024 * 1024 + " bytes; the agent reads at most " + KubeletPodList.MAX_BODY_BYTES
                    + " bytes of a pod list)", e.getCause().getMessage());
            reset.future().await(10, TimeUnit.SECONDS);
        }
    }

    /** An endless chunked answer: refused once the cap is passed, the connection reset, nothing beyond the cap kept. */
    @Test
    void anEndlessListIsCutAtTheCap(Vertx vertx) throws Exception {
        AtomicLong written = new AtomicLong();
        Promise<Void> reset = Promise.promise();
        HttpServer endless = vertx.createHttpServer().requestHandler(request -> {
            request.connection().closeHandler(closed -> reset.tryComplete());
            HostilePodList.flood(request.response().setChunked(true), 4L * KubeletPodList.MAX_BODY_BYTES, written);
        }).listen(0, "127.0.0.1").await(10, TimeUnit.SECONDS);
        try (KubeletPodList endlessList = new KubeletPodList(vertx,
                URI.create("http://127.0.0.1:" + endless.actualPort() + "/pods"), Duration.ofSeconds(60))) {
            ExecutionException e = assertThrows(ExecutionException.class,
                    () -> endlessList.list().toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS));
            assertTrue(e.getCause().getMessage().endsWith("answer too large (more than " + KubeletPodList.MAX_BODY_BYTES
                    + " bytes arrived; the agent reads at most " + KubeletPodList.MAX_BODY_BYTES
                    + " bytes of a pod list)"), e.getCause().getMessage());
            reset.future().await(10, TimeUnit.SECONDS);
            assertTrue(written.get() < 4L * KubeletPodList.MAX_BODY_BYTES, "the server stopped on the reset, after "
                    + written.get() + " bytes");
        }
    }

    /** A kubelet that answers headers, then nothing: the deadline fails the refresh and resets the connection. */
    @Test
    void aHungListFailsAtTheDeadlineAndTheConnectionIsReset(Vertx vertx) throws Exception {
        Promise<Void> reset = Promise.promise();
        HttpServer hung = vertx.createHttpServer().requestHandler(request -> {
            request.connection().closeHandler(closed -> reset.tryComplete());
            request.response().setChunked(true).write("{\"items\": [");
        }).listen(0, "127.0.0.1").await(10, TimeUnit.SECONDS);
        try (KubeletPodList hungList = new KubeletPodList(vertx,
                URI.create("http://127.0.0.1:" + hung.actualPort() + "/pods"), Duration.ofMillis(500))) {
            ExecutionException e = assertThrows(ExecutionException.class,
                    () -> hungList.list().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS));
            assertEquals("kubelet pod list " + hungList.url() + ": no answer within the deadline (kubelet overloaded or"
                    + " hung)", e.getCause().getMessage());
            reset.future().await(10, TimeUnit.SECONDS);
        }
    }
}
