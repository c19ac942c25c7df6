package io.rdmamon.agent.bench;

import io.rdmamon.protocol.testing.Slow;
import io.rdmamon.protocol.model.HostSample;
import io.rdmamon.protocol.wire.WireFormat;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.Vertx;
import io.vertx.core.http.WebSocket;
import io.vertx.core.http.WebSocketClient;
import io.vertx.core.http.WebSocketClientOptions;
import io.vertx.core.http.WebSocketConnectOptions;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 23 item 6: overload costs history, not the process. A collector process with a small heap
 * ({@code -Xmx128m -XX:+ExitOnOutOfMemoryError}) is offered {@value #NODES} nodes of 32 mlx5 ports each (32 copies
 * of a real port: about 1.2 MiB of live heap per node, docs/performance.md "Heap admission"), seven times what its
 * heap can hold, by agents that send their hello at once, a sample a second once admitted, and come back after a
 * jittered 5 to 15 s when closed, as real agents do once their backoff (up to 15 s) has grown.
 *
 * <p>Held for {@value #SECONDS} s: the process stays alive and {@code /healthz} answers (within 15 s: a small heap
 * collects often, and this machine's two cores are shared with other builds: a 5 s bound failed once at load 20 while
 * the collector was well; a heap thrashing towards exhaustion stalls for much longer, until it exits) throughout; hellos are refused with 1013 for the heap, counted in
 * {@code rdmamon_collector_agent_streams_closed_total{reason="heap"}}; the nodes admitted are all exported in
 * {@code /metrics} and up; no admitted node is closed; no {@code OutOfMemoryError} in the process's output.
 * Before admission by estimated cost the process died of heap exhaustion (OutOfMemoryError). Bounded: about 60 s.
 */
@ExtendWith(VertxExtension.class)
@Slow
@Order(9) // the longest ITs start first (docs/testing.md)
class HeapAdmissionIT {
    private static final int NODES = 150;
    private static final int SECONDS = 35;
    private static final Duration HEALTH_DEADLINE = Duration.ofSeconds(15);

    @Test
    void aSmallHeapRefusesTheNodesItCannotHoldAndLives(Vertx vertx) throws Exception {
        HostSample host = SyntheticHosts.of(SyntheticHosts.eightPortHost(), 1, 32, false);
        CollectorIngestBench.FrameFeed feed = new CollectorIngestBench.FrameFeed(host);
        Path config = Files.writeString(Files.createTempFile("rdmamon-heap", ".json"), "{\"historyPoints\": 60}");
        Path log = Files.createTempFile("rdmamon-heap-collector", ".log");
        Fleet fleet = new Fleet(feed);
        try (BenchChild collector = BenchChild.java("collector",
                List.of("-Xmx128m", "-XX:+ExitOnOutOfMemoryError", "-XX:+DisplayVMOutputToStderr"),
                BenchCollector.class, List.of(config.toString()), log)) {
            int port = Integer.parseInt(BenchControl.fields(collector.awaitAnswer()).get("port"));
            fleet.port = port;
            vertx.deployVerticle(fleet).toCompletionStage().toCompletableFuture().get();

            HttpClient http = HttpClient.newBuilder().connectTimeout(HEALTH_DEADLINE).build();
            HttpRequest health = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/healthz"))
                    .timeout(HEALTH_DEADLINE).build();
            List<String> healthFailures = new ArrayList<>();
            long worstHealthMillis = 0;
            long start = System.currentTimeMillis();
            while (System.currentTimeMillis() - start < SECONDS * 1000L) {
                long t0 = System.nanoTime();
                try {
                    HttpResponse<String> r = http.send(health, HttpResponse.BodyHandlers.ofString());
                    if (r.statusCode() != 200) {
                        healthFailures.add("status " + r.statusCode() + " at " + (System.currentTimeMillis() - start) + " ms");
                    }
                } catch (java.io.IOException e) {
                    healthFailures.add(e + " at " + (System.currentTimeMillis() - start) + " ms");
                }
                worstHealthMillis = Math.max(worstHealthMillis, (System.nanoTime() - t0) / 1_000_000);
                Thread.sleep(500);
            }
            String metrics = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics"))
                    .timeout(Duration.ofSeconds(60)).build(), HttpResponse.BodyHandlers.ofString()).body();
            fleet.stopping = true;
            String heap = collector.ask("gc");
            String stats = collector.ask("stats");
            String collectorLog = Files.readString(log);

            double refusedForHeap = sample(metrics, "rdmamon_collector_agent_streams_closed_total{reason=\"heap\"}");
            Set<String> exported = new TreeSet<>();
            Set<String> up = new TreeSet<>();
            Matcher m = Pattern.compile("(?m)^rdma_agent_up\\{[^}]*node=\"([^\"]+)\"[^}]*} (\\S+)").matcher(metrics);
            while (m.find()) {
                exported.add(m.group(1));
                if (Double.parseDouble(m.group(2)) == 1) {
                    up.add(m.group(1));
                }
            }
            System.out.printf("heap admission: %d nodes offered, %d s; healthz worst %d ms; refused for the heap %.0f;"
                            + " exported %d, up %d; estimated %.1f of %.1f MiB; after GC %s; collector %s; fleet %s%n",
                    NODES, SECONDS, worstHealthMillis, refusedForHeap, exported.size(), up.size(),
                    sample(metrics, "rdmamon_collector_admission_estimated_bytes") / 1048576,
                    sample(metrics, "rdmamon_collector_admission_limit_bytes") / 1048576, heap, stats, fleet.outcomes());

            assertTrue(healthFailures.isEmpty(), "/healthz failed: " + healthFailures + "; log " + log);
            assertFalse(collectorLog.contains("OutOfMemoryError"), "OutOfMemoryError in the collector's log " + log);
            assertTrue(refusedForHeap > 0, "hellos refused for the heap: " + refusedForHeap);
            assertTrue(fleet.refusedForHeap.get() > 0, "agents told 1013 for the heap: " + fleet.outcomes());
            assertTrue(exported.size() >= 2 && exported.size() < NODES, "nodes exported: " + exported);
            assertEquals(exported, up, "every admitted node is up");
            assertEquals(exported.size(), Integer.parseInt(BenchControl.fields(stats).get("nodes")),
                    "every node held is exported");
            assertEquals(0, fleet.admittedClosed.get(), "admitted nodes closed by the collector: " + fleet.outcomes());
        } finally {
            Files.deleteIfExists(config);
            System.out.println("collector log: " + log);
        }
    }

    /** The value of the series written exactly as {@code series} in an exposition; 0 when absent. */
    private static double sample(String exposition, String series) {
        Matcher m = Pattern.compile("(?m)^" + Pattern.quote(series) + " (\\S+)").matcher(exposition);
        return m.find() ? Double.parseDouble(m.group(1)) : 0;
    }

    /**
     * {@value #NODES} agents: each connects and sends its hello at once, then a values frame a second while the
     * collector acknowledges (admitted); closed, it comes back after 5 to 15 s.
     */
    static final class Fleet extends VerticleBase {
        private final CollectorIngestBench.FrameFeed feed;
        private final Random jitter = new Random(23);
        private final Map<String, AtomicLong> closes = new ConcurrentHashMap<>();
        final AtomicLong refusedForHeap = new AtomicLong();
        /** Connections closed by the collector after it acknowledged a sample of theirs. */
        final AtomicLong admittedClosed = new AtomicLong();
        volatile int port;
        volatile boolean stopping;
        private WebSocketClient client;
        private long startMillis;

        Fleet(CollectorIngestBench.FrameFeed feed) {
            this.feed = feed;
        }

        @Override
        public Future<?> start() {
            client = vertx.createWebSocketClient(new WebSocketClientOptions().setMaxConnections(NODES * 2)
                    .setMaxMessageSize(WireFormat.DEFAULT_MAX_FRAME_BYTES));
            startMillis = System.currentTimeMillis();
            for (int i = 0; i < NODES; i++) {
                connect(i);
            }
            return Future.succeededFuture();
        }

        private void connect(int index) {
            if (stopping) {
                return;
            }
            String node = String.format("heap-node-%03d", index);
            client.connect(new WebSocketConnectOptions().setHost("127.0.0.1").setPort(port)
                    .setURI(WireFormat.STREAM_PATH).setTimeout(10_000)).onSuccess(ws -> stream(index, node, ws))
                    .onFailure(e -> {
                        count("connect-failed");
                        retry(index);
                    });
        }

        private void stream(int index, String node, WebSocket ws) {
            AtomicLong acked = new AtomicLong();
            ws.binaryMessageHandler(b -> acked.incrementAndGet());
            long timer = vertx.setPeriodic(1000, 1000, id -> {
                if (!ws.isClosed() && !stopping && !ws.writeQueueFull()) {
                    long second = (System.currentTimeMillis() - startMillis) / 1000 + 1;
                    ws.writeBinaryMessage(feed.values(index % 16, second));
                }
            });
            ws.closeHandler(v -> {
                vertx.cancelTimer(timer);
                if (stopping) {
                    return;
                }
                Short code = ws.closeStatusCode();
                String reason = ws.closeReason() == null ? "" : ws.closeReason();
                String kind = code + (reason.startsWith("collector heap full") ? " heap"
                        : reason.startsWith("collector busy") ? " busy" : "");
                count(kind);
                if (kind.endsWith(" heap")) {
                    refusedForHeap.incrementAndGet();
                }
                if (acked.get() > 0) {
                    admittedClosed.incrementAndGet();
                    count("admitted-closed " + code + " " + reason);
                }
                retry(index);
            });
            ws.writeBinaryMessage(feed.hello(node));
        }

        private void retry(int index) {
            vertx.setTimer(5000 + jitter.nextInt(10_000), id -> connect(index));
        }

        private void count(String kind) {
            closes.computeIfAbsent(kind, k -> new AtomicLong()).incrementAndGet();
        }

        String outcomes() {
            return "closes " + new TreeMap<>(closes);
        }
    }
}
