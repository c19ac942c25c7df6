package io.rdmamon.agent.bench;

import io.rdmamon.protocol.testing.Slow;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.rdmamon.protocol.model.HostSample;
import io.rdmamon.protocol.testing.Waits;
import io.rdmamon.protocol.wire.Frame;
import io.rdmamon.protocol.wire.FrameCodec;
import io.rdmamon.protocol.wire.SampleEncoder;
import io.rdmamon.protocol.wire.WireFormat;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.WebSocket;
import io.vertx.core.http.WebSocketClient;
import io.vertx.core.http.WebSocketClientOptions;
import io.vertx.core.http.WebSocketConnectOptions;
import io.vertx.core.net.NetClient;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.parallel.ResourceLock;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Soak: a collector process with the container's settings ({@code -Xmx768m -XX:+ExitOnOutOfMemoryError}) takes a fleet
 * of simulated nodes at 1 Hz over the real wire protocol (default 500 nodes of an 8-port mlx5 host) while a stream of
 * hostile connections arrives (one every 200 ms: oversized and malformed frames, a 512 KiB frame type, a huge absent
 * index, a far-future timestamp, an impersonated node name, a 10,000-port layout, a 100,000-counter port, a forged log
 * line in the agent version, text messages, half-sent HTTP requests) and agents reconnect and replay.
 *
 * <p>Held, from the moment the collector has settled under the fleet and the hostile stream ({@code /healthz} on time
 * 10 times in a row): {@code /healthz} answers within 1 s throughout (polled every 500 ms); heap after a full GC stays flat (first
 * reading after the rate history has filled vs the last one); the collector stays alive; no fleet node is closed or
 * left stale; every values frame of the fleet and of the reconnecting agents is acknowledged (nothing lost); no
 * hostile node has a sample applied.
 *
 * <p>Bounded: {@code -Drdmamon.soak.seconds} (150) and {@code -Drdmamon.soak.nodes} (500); loopback only; every
 * loop stops by itself.
 */
@Slow
@ExtendWith(VertxExtension.class)
@Order(1) // the longest ITs start first (docs/testing.md)
@ResourceLock(Slow.CORES)
class CollectorSoakIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** Short history, so that the store's rings fill during warm-up and any later growth is a leak. */
    private static final int HISTORY_POINTS = 30;
    private static final Duration HEALTH_DEADLINE = Duration.ofSeconds(1);
    /**
     * The measured window opens once {@code /healthz} has answered on time this many times in a row (5 s of polls)
     * under the whole load, at most {@link #SETTLE_LIMIT} after the fleet connected: the JIT's first work, the
     * fleet's first samples and the hostile stream's first rounds are not what the soak measures.
     */
    private static final int STEADY_POLLS = 10;
    private static final Duration SETTLE_LIMIT = Duration.ofSeconds(90);
    private static final Duration HEALTH_POLL = Duration.ofMillis(500);
    /**
     * The collector process's niceness. The soak runs beside another IT (docs/testing.md), and a neighbour starting
     * JVMs on two cores took the collector's event loop for seconds: /healthz missed its 1 s deadline for 6 to 12 s in
     * four runs of eight, and curl from another process saw 1.6 s then too. Deployed, the collector's CPU request
     * (deploy/kubernetes: requests.cpu 1) gives it its share of a busy node; this does the same here: -5 weighs about
     * three times a default process (the kernel's sched_prio_to_weight: 3121 against 1024).
     */
    private static final int COLLECTOR_NICENESS = -5;

    @Test
    void collectorHoldsAFleetUnderHostileFramesAndReconnects(Vertx vertx) throws Exception {
        // 150 s in --all: the heap is compared over 100 s of the fleet's 1,000 frames a second (50 s of warm-up),
        // which a leak of a retained object per frame far exceeds; -Drdmamon.soak.seconds=300 for the reference figure
        int seconds = Integer.getInteger("rdmamon.soak.seconds", 150);
        int nodes = Integer.getInteger("rdmamon.soak.nodes", 500);
        HostSample template = SyntheticHosts.eightPortHost();
        Path config = Files.createTempFile("rdmamon-soak", ".json");
        Files.writeString(config, "{\"historyPoints\": " + HISTORY_POINTS + "}");
        Path log = Files.createTempFile("rdmamon-soak-collector", ".log");
        CollectorIngestBench.FrameFeed feed = new CollectorIngestBench.FrameFeed(template);
        Hostile hostile = new Hostile(template);
        CollectorIngestBench.LoadCounters fleet = new CollectorIngestBench.LoadCounters();
        try (BenchChild collector = BenchChild.java("collector", COLLECTOR_NICENESS,
                List.of("-Xmx768m", "-XX:+ExitOnOutOfMemoryError"), BenchCollector.class, List.of(config.toString()), log)) {
            int port = Integer.parseInt(BenchControl.fields(collector.awaitAnswer()).get("port"));
            for (int k = 0; k < 2; k++) {
                vertx.deployVerticle(new CollectorIngestBench.LoadVerticle(port, "soak-node-%04d", nodes, k, 2, feed, fleet, 100))
                        .toCompletionStage().toCompletableFuture().get();
            }
            HostileVerticle attacker = new HostileVerticle(port, hostile, "soak-node-0007");
            vertx.deployVerticle(attacker).toCompletionStage().toCompletableFuture().get();

            HttpClient http = HttpClient.newBuilder().connectTimeout(HEALTH_DEADLINE).build();
            HttpRequest health = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/healthz"))
                    .timeout(HEALTH_DEADLINE).build();
            long settleStart = System.currentTimeMillis();
            int[] steady = {0};
            Waits.poll("/healthz on time " + STEADY_POLLS + " times in a row under the fleet and the hostile stream", () -> {
                String miss = healthMiss(http, health);
                steady[0] = miss == null ? steady[0] + 1 : 0;
                return steady[0] + " in a row" + (miss == null ? "" : "; last miss: " + miss);
            }, observed -> steady[0] >= STEADY_POLLS, SETTLE_LIMIT, HEALTH_POLL);
            long settledMillis = System.currentTimeMillis() - settleStart;
            long warmupMillis = Math.min(60_000, seconds * 1000L / 3); // rings full (30 points) and the JIT settled
            long start = System.currentTimeMillis();
            long end = start + seconds * 1000L;
            long heapAfterWarmup = -1;
            long worstHealthMillis = 0;
            List<String> healthFailures = new ArrayList<>();
            List<String> heapReadings = new ArrayList<>();
            long nextHeap = start + warmupMillis;
            while (System.currentTimeMillis() < end) {
                long t0 = System.nanoTime();
                String miss = healthMiss(http, health);
                if (miss != null) {
                    healthFailures.add(miss + " at " + (System.currentTimeMillis() - start) + " ms");
                }
                worstHealthMillis = Math.max(worstHealthMillis, (System.nanoTime() - t0) / 1_000_000);
                if (System.currentTimeMillis() >= nextHeap) {
                    long heap = heapAfterGc(collector, log);
                    heapReadings.add((System.currentTimeMillis() - start) / 1000 + " s: " + heap / 1048576 + " MiB");
                    if (heapAfterWarmup < 0) {
                        heapAfterWarmup = heap;
                    }
                    nextHeap += 30_000;
                }
                Thread.sleep(HEALTH_POLL.toMillis());
            }
            long heapAtEnd = heapAfterGc(collector, log);
            heapReadings.add("end: " + heapAtEnd / 1048576 + " MiB");
            // while the fleet still streams: a node is up for 3 intervals after its last sample, no longer
            JsonNode nodeList = JSON.readTree(http.send(HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + port + "/api/nodes")).timeout(Duration.ofSeconds(10)).build(),
                    HttpResponse.BodyHandlers.ofString()).body());
            fleet.stopping = true;
            attacker.stopping = true;
            // the last second's frames are acknowledged within a moment (a missing one fails the equality below)
            Waits.pollUntil(() -> fleet.sent.get() - fleet.acks.get(), unacked -> unacked == 0, Duration.ofSeconds(10),
                    Duration.ofMillis(100));
            String stats = collector.ask("stats");

            System.out.printf("soak: %d s, %d nodes; collector at nice %d; settled in %d ms; healthz worst %d ms; heap after GC"
                            + " %s; fleet sent %d, acked %d, skipped %d, closed %d; hostile %s; collector %s%n", seconds, nodes,
                    collector.niceness(), settledMillis, worstHealthMillis,
                    heapReadings, fleet.sent.get(), fleet.acks.get(), fleet.skipped.get(), fleet.closedByCollector.get(),
                    attacker.outcomes(), stats);

            assertTrue(healthFailures.isEmpty(), "/healthz missed its 1 s deadline: " + healthFailures);
            assertEquals(0, fleet.closedByCollector.get(), "fleet connections closed by the collector");
            assertEquals(fleet.sent.get(), fleet.acks.get(), "every fleet sample acknowledged");
            // flat: what the first minute left in the heap plus noise (a leak of one object per frame would be far more)
            assertTrue(heapAtEnd <= heapAfterWarmup + heapAfterWarmup / 5 + 16 * 1048576L,
                    "heap after GC grew from " + heapAfterWarmup / 1048576 + " to " + heapAtEnd / 1048576 + " MiB: " + heapReadings);
            int up = 0;
            for (JsonNode node : nodeList.get("nodes")) {
                String name = node.get("node").asText();
                assertTrue(name.startsWith("soak-node-") || name.startsWith("churn-node-") || name.startsWith("hostile-"),
                        "unexpected node " + name);
                if (name.startsWith("soak-node-") && node.get("up").asBoolean()) {
                    up++;
                }
                assertTrue(!name.startsWith("hostile-") || !node.hasNonNull("lastSampleTimestampMillis"),
                        "a hostile node's sample was applied: " + node);
            }
            assertEquals(nodes, up, "fleet nodes up at the end");
            assertTrue(attacker.sent.get() >= seconds * 4L, "hostile connections made: " + attacker.outcomes());
            // the churning agents still connected at the stop get their last acks within their own 10 s bound
            Waits.pollUntil(attacker::churnAcksMissing, missing -> missing == 0, Duration.ofSeconds(15),
                    Duration.ofMillis(200));
            assertEquals(0, attacker.churnAcksMissing(), "reconnecting agents: samples not acknowledged " + attacker.outcomes());
        } finally {
            Files.deleteIfExists(config);
            System.out.println("collector log: " + log);
        }
    }

    /** One {@code /healthz} poll: null when it answered 200 within the deadline, else what went wrong. */
    private static String healthMiss(HttpClient http, HttpRequest health) throws InterruptedException {
        try {
            int status = http.send(health, HttpResponse.BodyHandlers.discarding()).statusCode();
            return status == 200 ? null : "status " + status;
        } catch (java.io.IOException e) {
            return e.toString();
        }
    }

    private static long heapAfterGc(BenchChild collector, Path log) {
        try {
            return Long.parseLong(BenchControl.fields(collector.ask("gc")).get("heapUsed"));
        } catch (java.io.IOException e) {
            throw new AssertionError("the collector process died (" + e.getMessage() + "); its log: " + log, e);
        }
    }

    /** The hostile catalogue: raw frames built from a real host's hello and values. */
    static final class Hostile {
        private final FrameCodec codec = new FrameCodec();
        private final ObjectNode hello;
        private final ObjectNode values;

        Hostile(HostSample template) throws java.io.IOException {
            List<Frame> frames = new SampleEncoder("template", "soak", 1000).encode(template, 1);
            hello = (ObjectNode) JSON.readTree(codec.encode(frames.get(0)));
            values = (ObjectNode) JSON.readTree(codec.encode(frames.get(1)));
        }

        ObjectNode hello(String node) {
            return hello.deepCopy().put("node", node);
        }

        ObjectNode values(long seq, long timestampMillis) {
            return values.deepCopy().put("seq", seq).put("ts", timestampMillis);
        }

        /** Name → the frames a hostile connection sends, in order. */
        Map<String, Supplier<List<Buffer>>> catalogue(String heldNode) {
            Map<String, Supplier<List<Buffer>>> kinds = new TreeMap<>();
            kinds.put("huge-type", () -> List.of(json(values(1, now()).put("type", "x".repeat(512 * 1024)))));
            kinds.put("absent-max", () -> List.of(json(hello("hostile-absent")),
                    json(values(1, now()).set("absent", JSON.createArrayNode().add(Integer.MAX_VALUE)))));
            kinds.put("future-ts", () -> List.of(json(hello("hostile-clock")),
                    json(values(1, now() + 365L * 24 * 3600 * 1000))));
            kinds.put("impersonate", () -> List.of(json(hello(heldNode)), json(values(1, now()))));
            kinds.put("oversize", () -> List.of(Buffer.buffer(new byte[WireFormat.DEFAULT_MAX_FRAME_BYTES + 128 * 1024])));
            kinds.put("garbage", () -> {
                byte[] bytes = new byte[4096];
                new Random().nextBytes(bytes);
                return List.of(Buffer.buffer(bytes));
            });
            kinds.put("truncated", () -> {
                byte[] full = json(hello("hostile-truncated")).getBytes();
                return List.of(Buffer.buffer(java.util.Arrays.copyOf(full, full.length / 2)));
            });
            kinds.put("many-ports", () -> List.of(json(manyPorts(10_000))));
            kinds.put("many-counters", () -> List.of(json(manyCounters(100_000))));
            kinds.put("forged-version", () -> List.of(json(hello("hostile-version")
                    .put("agentVersion", "1.0\n2026-11-23 INFO agent admin connected\n" + "v".repeat(3 * 1024 * 1024)))));
            return kinds;
        }

        private ObjectNode manyPorts(int count) {
            ObjectNode frame = hello("hostile-ports");
            ObjectNode device = (ObjectNode) frame.get("layout").get("devices").get(0);
            ObjectNode port = ((ObjectNode) device.get("ports").get(0)).deepCopy();
            port.remove(List.of("counters", "hwCounters", "gids", "ethtool", "verbs"));
            ArrayNode ports = device.putArray("ports");
            for (int i = 1; i <= count; i++) {
                ports.add(port.deepCopy().put("port", i));
            }
            ((ArrayNode) frame.get("layout").get("devices")).removeAll().add(device);
            return frame;
        }

        private ObjectNode manyCounters(int count) {
            ObjectNode frame = hello("hostile-counters");
            ObjectNode port = (ObjectNode) frame.get("layout").get("devices").get(0).get("ports").get(0);
            ArrayNode counters = port.putArray("hwCounters");
            for (int i = 0; i < count; i++) {
                counters.add("c" + i);
            }
            return frame;
        }

        static Buffer json(ObjectNode frame) {
            try {
                return Buffer.buffer(JSON.writeValueAsBytes(frame));
            } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
                throw new IllegalStateException(e);
            }
        }

        private static long now() {
            return System.currentTimeMillis();
        }
    }

    /**
     * Every 200 ms one hostile connection from the catalogue (round robin), a half-sent HTTP request, or a reconnect of
     * one of ten churning agents that send three values frames and leave (their samples must all be acknowledged).
     */
    static final class HostileVerticle extends VerticleBase {
        private final int port;
        private final Hostile hostile;
        private final String heldNode;
        private final Map<String, AtomicLong> refusedByKind = new ConcurrentHashMap<>();
        final AtomicLong sent = new AtomicLong();
        /** Frames the collector sent to hostile connections (acks of refused samples may be among them). */
        final AtomicLong answered = new AtomicLong();
        private final AtomicLong churnSent = new AtomicLong();
        private final AtomicLong churnAcked = new AtomicLong();
        private final long[] churnSeq = new long[10];
        private static final int CHURN_SAMPLES = 3;
        volatile boolean stopping;
        private WebSocketClient client;
        private NetClient raw;
        private long tick;

        HostileVerticle(int port, Hostile hostile, String heldNode) {
            this.port = port;
            this.hostile = hostile;
            this.heldNode = heldNode;
        }

        @Override
        public Future<?> start() {
            client = vertx.createWebSocketClient(new WebSocketClientOptions().setMaxConnections(64)
                    .setMaxFrameSize(64 * 1024).setMaxMessageSize(WireFormat.DEFAULT_MAX_FRAME_BYTES * 2));
            raw = vertx.createNetClient();
            List<Map.Entry<String, Supplier<List<Buffer>>>> kinds = new ArrayList<>(hostile.catalogue(heldNode).entrySet());
            vertx.setPeriodic(200, id -> {
                if (stopping) {
                    vertx.cancelTimer(id);
                    return;
                }
                long n = tick++;
                int slot = (int) (n % (kinds.size() + 2));
                if (slot < kinds.size()) {
                    attack(kinds.get(slot).getKey(), kinds.get(slot).getValue().get());
                } else if (slot == kinds.size()) {
                    halfRequest();
                } else {
                    churn((int) (n / (kinds.size() + 2)) % churnSeq.length);
                }
                sent.incrementAndGet();
            });
            return Future.succeededFuture();
        }

        private Future<WebSocket> connect() {
            return client.connect(new WebSocketConnectOptions().setHost("127.0.0.1").setPort(port)
                    .setURI(WireFormat.STREAM_PATH).setTimeout(5000));
        }

        private void attack(String kind, List<Buffer> frames) {
            connect().onSuccess(ws -> {
                ws.binaryMessageHandler(b -> answered.incrementAndGet());
                ws.closeHandler(v -> refusedByKind.computeIfAbsent(kind + " " + ws.closeStatusCode(),
                        k -> new AtomicLong()).incrementAndGet());
                frames.forEach(ws::writeBinaryMessage);
                // a connection the collector keeps open for long is closed by us, and counted as such
                vertx.setTimer(10_000, t -> {
                    if (!ws.isClosed()) {
                        refusedByKind.computeIfAbsent(kind + " still-open", k -> new AtomicLong()).incrementAndGet();
                        ws.close();
                    }
                });
            }).onFailure(e -> refusedByKind.computeIfAbsent(kind + " connect-failed", k -> new AtomicLong()).incrementAndGet());
        }

        /** A request line and one header, then nothing: the collector must cut it, not hold it. */
        private void halfRequest() {
            raw.connect(port, "127.0.0.1").onSuccess(socket -> {
                socket.write("GET /api/nodes HTTP/1.1\r\nHost: 127.0.0.1\r\n");
                vertx.setTimer(60_000, t -> socket.close());
            });
        }

        private void churn(int agent) {
            String node = "churn-node-" + agent;
            connect().onSuccess(ws -> {
                // Like a real agent it leaves once its samples are acknowledged (an agent replays what was not):
                // leaving at a fixed 1.5 s raced the third ack on a loaded machine and counted it as lost. A sample
                // never acknowledged within 10 s stays missing.
                AtomicLong acked = new AtomicLong();
                long deadline = vertx.setTimer(10_000, t -> ws.close());
                ws.binaryMessageHandler(b -> {
                    churnAcked.incrementAndGet();
                    if (acked.incrementAndGet() == CHURN_SAMPLES) {
                        vertx.cancelTimer(deadline);
                        ws.close();
                    }
                });
                ws.writeBinaryMessage(Hostile.json(hostile.hello(node)));
                for (int i = 0; i < CHURN_SAMPLES; i++) {
                    long seq = ++churnSeq[agent];
                    vertx.setTimer(300L * (i + 1), t -> {
                        ws.writeBinaryMessage(Hostile.json(hostile.values(seq, System.currentTimeMillis())));
                        churnSent.incrementAndGet();
                    });
                }
            });
        }

        long churnAcksMissing() {
            return churnSent.get() - churnAcked.get();
        }

        String outcomes() {
            return "made " + sent.get() + ", answered " + answered.get() + ", churn sent " + churnSent.get()
                    + " acked " + churnAcked.get() + ", closes " + new TreeMap<>(refusedByKind);
        }
    }
}
