package io.rdmamon.cli.it;

import io.rdmamon.agent.workload.HostilePodList;
import io.rdmamon.collector.deploy.ShippedAgentFlags;
import io.rdmamon.protocol.testing.LoopbackPorts;
import io.rdmamon.protocol.testing.Waits;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The agent as the DaemonSet runs it (its JVM flags: a 160 MiB heap, exit on OutOfMemoryError) against a hostile
 * kubelet read-only port on loopback (issue 34, defect 7): every other {@code /pods} answer is a 400 MB body, the
 * others trickle one byte a second. The agent must cut each at its cap or deadline, reset the connection, and stay
 * alive and sampling.
 */
@ExtendWith(VertxExtension.class)
class HostileKubeletMemoryIT {
    private static final long HUGE_BYTES = 400L * 1000 * 1000;
    /** Answers of each kind the agent must have cut before it is checked. */
    private static final int ATTACKS = 2;
    /** The agent's pod list deadline (PodResourcesOption) and room for a slow CI machine. */
    private static final Duration TRICKLE_CUT_WITHIN = Duration.ofSeconds(15);
    private static final String LAST_SAMPLE = "rdma_agent_last_sample_timestamp_seconds{node=\"mem-1\"} ";

    @TempDir
    Path work;

    private final AtomicInteger requests = new AtomicInteger();
    /** Bytes written of each huge answer, once the agent closed its connection. */
    private final Queue<Long> floodsCut = new ConcurrentLinkedQueue<>();
    /** How long each trickling answer lasted before the agent closed its connection. */
    private final Queue<Duration> tricklesCut = new ConcurrentLinkedQueue<>();

    @Test
    void theShippedAgentSurvivesHugeAndTricklingPodListsAndKeepsSampling(Vertx vertx) throws Exception {
        HttpServer kubelet = vertx.createHttpServer().requestHandler(request -> answer(vertx, request))
                .listen(0, "127.0.0.1").await(10, TimeUnit.SECONDS);
        int listen = LoopbackPorts.free();
        try (AgentProcess agent = AgentProcess.start(work, "mem-1", ShippedAgentFlags.daemonSet(), List.of(
                "--node", "mem-1", "--interval", "1s", "--listen", "127.0.0.1:" + listen,
                // a live root: only an agent that reads RDMA netlink attributes QPs and asks the kubelet (it samples
                // this machine's devices, none on a machine without RDMA, and keeps sampling all the same)
                "--host-root", "/", "--pod-resources", "none",
                "--kubelet-pods", "http://127.0.0.1:" + kubelet.actualPort() + "/pods",
                "--pod-resources-refresh", "1s"))) {
            Waits.poll("the agent to cut " + ATTACKS + " answers of each kind",
                    () -> floodsCut.size() + " floods and " + tricklesCut.size() + " trickles cut; agent alive: "
                            + agent.isAlive(),
                    seen -> floodsCut.size() >= ATTACKS && tricklesCut.size() >= ATTACKS || !agent.isAlive(),
                    Duration.ofSeconds(60), Duration.ofMillis(200));
            assertTrue(agent.isAlive(), () -> "the agent died under attack: " + log(agent));
            floodsCut.forEach(bytes -> assertTrue(bytes < HUGE_BYTES, "a flood read to its end: " + bytes));
            tricklesCut.forEach(lasted -> assertTrue(lasted.compareTo(TRICKLE_CUT_WITHIN) < 0,
                    "a trickle held for " + lasted));

            double before = Waits.poll("the agent's /metrics", () -> lastSample(listen), sampled -> sampled > 0,
                    Duration.ofSeconds(10), Duration.ofMillis(200));
            Waits.poll("a sample after the attacks", () -> lastSample(listen), after -> after > before,
                    Duration.ofSeconds(10), Duration.ofMillis(200));
            assertTrue(agent.isAlive(), () -> "the agent died: " + log(agent));
        } finally {
            kubelet.close().await(10, TimeUnit.SECONDS);
        }
    }

    /** Odd requests get a 400 MB pod list as fast as the agent reads, even ones a byte a second. */
    private void answer(Vertx vertx, HttpServerRequest request) {
        long started = System.nanoTime();
        if (requests.incrementAndGet() % 2 == 1) {
            AtomicLong written = new AtomicLong();
            request.connection().closeHandler(closed -> floodsCut.add(written.get()));
            HostilePodList.flood(request.response().setChunked(true), HUGE_BYTES, written);
        } else {
            request.connection().closeHandler(closed -> tricklesCut.add(Duration.ofNanos(System.nanoTime() - started)));
            HostilePodList.trickle(vertx, request.response());
        }
    }

    /** The agent's own last sample time, from its /metrics; 0 before the first sample. */
    private static double lastSample(int port) throws IOException, InterruptedException {
        try {
            String body = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                            URI.create("http://127.0.0.1:" + port + "/metrics")).timeout(Duration.ofSeconds(5)).build(),
                    HttpResponse.BodyHandlers.ofString()).body();
            return body.lines().filter(l -> l.startsWith(LAST_SAMPLE))
                    .mapToDouble(l -> Double.parseDouble(l.substring(LAST_SAMPLE.length()))).findFirst().orElse(0);
        } catch (IOException notListeningYet) {
            return 0;
        }
    }

    private static String log(AgentProcess agent) {
        try {
            return agent.log();
        } catch (IOException e) {
            return "(no log: " + e + ")";
        }
    }
}
