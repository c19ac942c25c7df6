package io.rdmamon.collector.live;

import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.rdmamon.collector.diagnosis.DiagnosisConfig;
import io.rdmamon.collector.diagnosis.engine.DiagnosisEngine;
import io.rdmamon.collector.store.NodeStore;
import io.rdmamon.protocol.model.HostSample;
import io.rdmamon.protocol.testing.FixtureHosts;

import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import java.util.function.Predicate;

import static io.rdmamon.protocol.testing.Waits.await;
import static io.rdmamon.protocol.testing.Waits.waitFor;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The push channel over real loopback HTTP, fed through a real {@link NodeStore}. */
@ExtendWith(VertxExtension.class)
class LiveFeedTest {
    private static final Duration EVENT_LIMIT = Duration.ofSeconds(15);
    private Vertx vertx;
    private NodeStore store;
    private DiagnosisEngine engine;
    private LiveFeed feed;
    private int port;
    private final List<Socket> sockets = new ArrayList<>();

    @BeforeEach
    void setUp(Vertx vertx) {
        this.vertx = vertx;
        store = new NodeStore(System::currentTimeMillis, 3, 600_000, 900, 10_000);
        engine = new DiagnosisEngine(DiagnosisConfig.defaults(), store, System::currentTimeMillis);
    }

    @AfterEach
    void tearDown() throws Exception {
        for (Socket socket : sockets) {
            socket.close();
        }
    }

    private void start(LiveFeedOptions options) throws Exception {
        start(options, new HttpServerOptions());
    }

    private void start(LiveFeedOptions options, HttpServerOptions serverOptions) throws Exception {
        feed = new LiveFeed(vertx, store, engine, new PrometheusRegistry(), options);
        Router router = Router.router(vertx);
        // mounted on an event-loop context, as the collector verticle does
        Promise<HttpServer> listening = Promise.promise();
        vertx.runOnContext(v -> {
            feed.mount(router);
            vertx.createHttpServer(serverOptions).requestHandler(router).listen(0, "127.0.0.1").onComplete(listening);
        });
        HttpServer server = await(listening.future());
        port = server.actualPort();
    }

    private void sample(String node, long timestampMillis, long step) {
        store.connect(node, "test", 1000);
        store.accept(FixtureHosts.golden(node, timestampMillis, step));
    }

    @Test
    void streamsHelloFullFleetDeltasAndWatchedPortHistory() throws Exception {
        long t0 = System.currentTimeMillis() - 10_000;
        sample("node-a", t0, 1);
        sample("node-a", t0 + 1000, 2);
        sample("node-b", t0 + 1000, 1);
        start(LiveFeedOptions.defaults(900).withTick(Duration.ofMillis(100), Duration.ofSeconds(30)));

        EventReader events = EventReader.open(port, "/api/live?watch=node-a/mlx5_0/1");
        JsonObject hello = events.next("hello", e -> true);
        assertEquals(new JsonArray().add("node-a/mlx5_0/1"), hello.getJsonArray("watching"));
        List<Object> fields = hello.getJsonArray("portFields").getList();

        JsonObject full = events.next("fleet", e -> e.getBoolean("full"));
        assertEquals(List.of("node-a", "node-b"), full.getJsonArray("nodes").stream()
                .map(n -> ((JsonObject) n).getString("node")).toList());
        JsonObject nodeA = full.getJsonArray("nodes").getJsonObject(0);
        assertEquals(new JsonArray().add(new JsonArray().add("ethtool").add("eth0")
                .add("ioctl SIOCETHTOOL ETHTOOL_GSTATS on eth0: Operation not supported")), nodeA.getJsonArray("failures"));
        JsonArray roce = nodeA.getJsonArray("ports").stream().map(p -> (JsonArray) p)
                .filter(p -> p.getString(0).equals("mlx5_0") && p.getInteger(1) == 1).findFirst().orElseThrow();
        // FixtureHosts.golden: port_rcv_data +4,000,000 and port_xmit_data +8,000,000 bytes per step, 1 s apart
        assertEquals(4_000_000.0, roce.getDouble(fields.indexOf("rxBytesPerSecond")), 1e-6);
        assertEquals(8_000_000.0, roce.getDouble(fields.indexOf("txBytesPerSecond")), 1e-6);
        assertEquals("ACTIVE", roce.getString(fields.indexOf("state")));
        assertEquals("eth2", roce.getString(fields.indexOf("netdev")));
        assertEquals(true, roce.getBoolean(fields.indexOf("active")));
        assertEquals("roce", roce.getString(fields.indexOf("transport")));

        JsonObject history = events.next("port", e -> e.getBoolean("reset"));
        assertEquals("node-a/mlx5_0/1", history.getString("key"));
        // seeded from the store's headline history: both samples, the first without a rate
        assertEquals(List.of(t0, t0 + 1000), history.getJsonArray("timestamps").getList().stream()
                .map(v -> ((Number) v).longValue()).toList());
        assertEquals(4_000_000.0, history.getJsonObject("series").getJsonArray("rx_bytes").getDouble(1), 1e-6);

        sample("node-a", t0 + 2000, 3);
        JsonObject delta = events.next("fleet", e -> !e.getBoolean("full") && !e.getJsonArray("nodes").isEmpty());
        assertEquals(List.of("node-a"), delta.getJsonArray("nodes").stream()
                .map(n -> ((JsonObject) n).getString("node")).toList(), "only the node with a new sample is resent");
        JsonObject point = events.next("port", e -> !e.getBoolean("reset"));
        assertEquals(List.of(t0 + 2000), point.getJsonArray("timestamps").getList().stream()
                .map(v -> ((Number) v).longValue()).toList());
        JsonObject series = point.getJsonObject("series");
        assertEquals(100.0, series.getJsonArray("np_cnp_sent").getDouble(0), 1e-3);
        assertEquals(3_000_000.0, series.getJsonArray("rx_prio3_bytes").getDouble(0), 1e-3);
        assertEquals(4.0, series.getJsonArray("state").getDouble(0));
        assertEquals(1.0, series.getJsonArray("active").getDouble(0), "ACTIVE carries traffic");
        assertFalse(series.containsKey("tx_bps_limit_drop_cnt"), "a series the port lacks is left out");
        List<String> moved = point.getJsonArray("moved").stream().map(m -> ((JsonArray) m).getString(1)).toList();
        assertTrue(moved.containsAll(List.of("port_rcv_data", "port_xmit_data", "np_cnp_sent", "rx_prio3_bytes")), moved.toString());
        assertFalse(moved.contains("out_of_sequence"), "a counter that did not move is not listed");
        JsonArray bytesCounter = point.getJsonArray("moved").stream().map(m -> (JsonArray) m)
                .filter(m -> m.getString(1).equals("port_rcv_data")).findFirst().orElseThrow();
        assertEquals(new JsonArray().add("port_counters").add("port_rcv_data").add(4_000_000.0).add(true), bytesCounter);

        events.close();
    }

    @Test
    void aDiagnosedPortKeepsItsDetailHistoryBeforeAnyoneWatchesIt() throws Exception {
        long t0 = System.currentTimeMillis() - 10_000;
        diagnosedSample(t0, 1); // FixtureHosts.golden: mlx5_0 port 2 is DOWN, link_down is raised on the first sample
        start(LiveFeedOptions.defaults(900).withTick(Duration.ofMillis(100), Duration.ofSeconds(30)));
        assertEquals("link_down", engine.snapshot().diagnoses().get(0).rule().id());
        waitFor(() -> feed.stats().watchedPorts() == 1, "a history for the diagnosed port, which nobody watches");

        EventReader fleetOnly = EventReader.open(port, "/api/live");
        fleetOnly.next("fleet", e -> e.getBoolean("full"));
        diagnosedSample(t0 + 1000, 2);
        // the tick that sends the node's new row has polled the detail histories first
        fleetOnly.next("fleet", e -> !e.getBoolean("full") && !e.getJsonArray("nodes").isEmpty());

        EventReader watcher = EventReader.open(port, "/api/live?watch=node-a/mlx5_0/2");
        JsonObject history = watcher.next("port", e -> e.getBoolean("reset"));
        List<Long> timestamps = history.getJsonArray("timestamps").getList().stream()
                .map(v -> ((Number) v).longValue()).toList();
        assertEquals(List.of(t0, t0 + 1000), timestamps);
        // a history seeded at the watch has headline rates only; the state is a detail series, read at t0 + 1000
        JsonArray state = history.getJsonObject("series").getJsonArray("state");
        assertTrue(state != null && state.getValue(1) != null && state.getDouble(1) == 1.0, history.encode());
        assertEquals(1, feed.stats().watchedPorts(), "the watch shares the diagnosed port's history");
        fleetOnly.close();
        watcher.close();
    }

    @Test
    void aWatchTakesTheSlotOfADiagnosedPortWhenNoOtherIsFree() throws Exception {
        long t0 = System.currentTimeMillis() - 10_000;
        diagnosedSample(t0, 1);
        start(LiveFeedOptions.defaults(900).withTick(Duration.ofMillis(100), Duration.ofSeconds(30)).withMaxWatchedPorts(1));
        waitFor(() -> feed.stats().watchedPorts() == 1, "a history for the diagnosed port");
        EventReader watcher = EventReader.open(port, "/api/live?watch=node-a/mlx5_0/1");
        assertEquals(new JsonArray().add("node-a/mlx5_0/1"), watcher.next("hello", e -> true).getJsonArray("watching"));
        assertEquals("node-a/mlx5_0/1", watcher.next("port", e -> e.getBoolean("reset")).getString("key"));
        watcher.close();
    }

    @Test
    void portRowsCarryTheirDiagnosisBadgeAndAreResentWhenTheNodesDiagnosesChange() throws Exception {
        long t0 = System.currentTimeMillis() - 10_000;
        // stored but not yet diagnosed: the engine judges it below, while the node's counters stay as they are
        store.connect("node-a", "test", 1000);
        HostSample sample = FixtureHosts.golden("node-a", t0, 1);
        store.accept(sample);
        sample("node-b", t0, 1);
        start(LiveFeedOptions.defaults(900).withTick(Duration.ofMillis(100), Duration.ofSeconds(30)));

        EventReader events = EventReader.open(port, "/api/live");
        int badge = events.next("hello", e -> true).getJsonArray("portFields").getList().indexOf("badge");
        JsonObject full = events.next("fleet", e -> e.getBoolean("full"));
        assertEquals(List.of(), badges(full, "node-a", badge), "no diagnosis yet: no badge");

        engine.accept(sample); // FixtureHosts.golden: mlx5_0 port 2 is DOWN, link_down is raised at once
        JsonObject raised = events.next("fleet", e -> !e.getBoolean("full") && !e.getJsonArray("nodes").isEmpty());
        assertEquals(List.of("node-a"), nodes(raised), "only the node whose diagnoses changed is resent");
        String evidence = engine.snapshot().diagnoses().get(0).evidence();
        assertEquals(List.of("mlx5_0/2 " + new JsonObject().put("severity", "critical").put("count", 1)
                .put("issues", new JsonArray().add(issue("link_down", "critical", evidence))).encode()),
                badges(raised, "node-a", badge));

        // a node-level diagnosis badges every port of the node, after the port's more urgent one
        store.nameConflict("node-a", "refused: a live connection from 127.0.0.2");
        engine.sweep(store.nodes());
        JsonObject conflict = events.next("fleet", e -> !e.getBoolean("full") && !e.getJsonArray("nodes").isEmpty());
        assertEquals(List.of("node-a"), nodes(conflict));
        List<String> rules = badges(conflict, "node-a", badge).stream()
                .map(b -> b.substring(0, b.indexOf(' ')) + " " + new JsonObject(b.substring(b.indexOf(' ') + 1))
                        .getJsonArray("issues").stream().map(i -> ((JsonObject) i).getString("rule")).toList())
                .toList();
        assertEquals(List.of("erdma_0/1 [node_name_conflict]", "mlx5_0/1 [node_name_conflict]",
                "mlx5_0/2 [link_down, node_name_conflict]"), rules);
        JsonArray ports = conflict.getJsonArray("nodes").getJsonObject(0).getJsonArray("ports");
        JsonObject both = ports.stream().map(p -> (JsonArray) p).filter(p -> p.getInteger(1) == 2).findFirst()
                .orElseThrow().getJsonObject(badge);
        assertEquals("critical", both.getString("severity"), "the worst of the two");
        assertEquals(2, both.getInteger("count"));

        engine.forget("node-a");
        JsonObject cleared = events.next("fleet", e -> !e.getBoolean("full") && !e.getJsonArray("nodes").isEmpty());
        assertEquals(List.of("node-a"), nodes(cleared));
        assertEquals(List.of(), badges(cleared, "node-a", badge), "every badge gone with the diagnoses");
        events.close();
    }

    private static List<String> nodes(JsonObject fleet) {
        return fleet.getJsonArray("nodes").stream().map(n -> ((JsonObject) n).getString("node")).toList();
    }

    /** The badges of {@code node}'s ports that have one, as "device/port badge-json". */
    private static List<String> badges(JsonObject fleet, String node, int badgeField) {
        JsonObject row = fleet.getJsonArray("nodes").stream().map(n -> (JsonObject) n)
                .filter(n -> n.getString("node").equals(node)).findFirst().orElseThrow();
        return row.getJsonArray("ports").stream().map(p -> (JsonArray) p).filter(p -> p.getValue(badgeField) != null)
                .map(p -> p.getString(0) + "/" + p.getInteger(1) + " " + p.getJsonObject(badgeField).encode()).toList();
    }

    private static JsonObject issue(String rule, String severity, String evidence) {
        return new JsonObject().put("rule", rule).put("severity", severity).put("evidence", evidence);
    }

    /** A sample of node-a for the store and the diagnosis engine, as the collector's ingest hands it to both. */
    private void diagnosedSample(long timestampMillis, long step) {
        store.connect("node-a", "test", 1000);
        HostSample sample = FixtureHosts.golden("node-a", timestampMillis, step);
        store.accept(sample);
        engine.accept(sample);
    }

    @Test
    void refusesAMalformedWatchNamingIt() throws Exception {
        start(LiveFeedOptions.defaults(900));
        HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + port + "/api/live?watch=node-a/mlx5_0/x")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(400, response.statusCode());
        assertEquals("watch 'node-a/mlx5_0/x': port is not a number", new JsonObject(response.body()).getString("error"));
    }

    @Test
    void aWatchBeyondTheHistoryLimitIsRefusedWithAnErrorEvent() throws Exception {
        sample("node-a", System.currentTimeMillis(), 1);
        start(LiveFeedOptions.defaults(900).withMaxWatchedPorts(1));
        EventReader first = EventReader.open(port, "/api/live?watch=node-a/mlx5_0/1");
        first.next("hello", e -> true);
        EventReader second = EventReader.open(port, "/api/live?watch=node-a/mlx5_0/2");
        assertEquals(new JsonArray(), second.next("hello", e -> true).getJsonArray("watching"));
        assertTrue(second.next("error", e -> true).getString("error").contains("all 1 detail histories are in use"));
        assertEquals(1, feed.stats().watchedPorts());
        first.close();
        second.close();
    }

    @Test
    void watchesOfPortsThatDoNotExistAreRefusedWithoutTakingASlot() throws Exception {
        sample("node-a", System.currentTimeMillis(), 1);
        start(LiveFeedOptions.defaults(900).withMaxWatchedPorts(1));
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        for (int i = 0; i < 64; i++) {
            HttpResponse<String> ghost = client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
                    + "/api/live?watch=ghost-" + i + "/mlx5_0/1")).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(404, ghost.statusCode());
            assertEquals("watch 'ghost-" + i + "/mlx5_0/1': unknown node 'ghost-" + i + "'",
                    new JsonObject(ghost.body()).getString("error"));
        }
        HttpResponse<String> noSuchPort = client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
                + "/api/live?watch=node-a/mlx5_0/9")).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(404, noSuchPort.statusCode());
        assertEquals("watch 'node-a/mlx5_0/9': node 'node-a' has no port mlx5_0/9",
                new JsonObject(noSuchPort.body()).getString("error"));
        assertEquals(0, feed.stats().watchedPorts(), "no history spent on them");

        EventReader real = EventReader.open(port, "/api/live?watch=node-a/mlx5_0/1");
        assertEquals(new JsonArray().add("node-a/mlx5_0/1"), real.next("hello", e -> true).getJsonArray("watching"),
                "the one slot is still free for a real port");
        real.close();
    }

    @Test
    void oneAddressHoldsAtMostItsWatchesOverAllItsStreams() throws Exception {
        sample("node-a", System.currentTimeMillis(), 1);
        start(LiveFeedOptions.defaults(900).withMaxWatchesPerAddress(2));
        EventReader first = EventReader.open(port, "/api/live?watch=node-a/mlx5_0/1");
        first.next("hello", e -> true);
        EventReader second = EventReader.open(port, "/api/live?watch=node-a/mlx5_0/2");
        assertEquals(new JsonArray().add("node-a/mlx5_0/2"), second.next("hello", e -> true).getJsonArray("watching"));
        EventReader third = EventReader.open(port, "/api/live?watch=node-a/mlx5_0/1");
        assertEquals(new JsonArray(), third.next("hello", e -> true).getJsonArray("watching"));
        JsonObject refused = third.next("error", e -> true);
        assertEquals("node-a/mlx5_0/1", refused.getString("watch"));
        assertTrue(refused.getString("error").startsWith("cannot watch node-a/mlx5_0/1: this client address already"
                + " holds 2 port watches (at most 2, http.maxPortWatchesPerAddress)"), refused.getString("error"));
        third.next("fleet", e -> true); // the stream itself is served

        first.close();
        waitFor(() -> feed.stats().clients() == 2, "the first stream closed");
        EventReader fourth = EventReader.open(port, "/api/live?watch=node-a/mlx5_0/1");
        assertEquals(new JsonArray().add("node-a/mlx5_0/1"), fourth.next("hello", e -> true).getJsonArray("watching"),
                "a closed stream gives its watches back");
        second.close();
        third.close();
        fourth.close();
    }

    @Test
    void aWatchBeforeTheNodesFirstSampleIsHeldPendingAndServedOnceItArrives() throws Exception {
        store.connect("node-a", "test", 1000); // hello received, no sample yet
        start(LiveFeedOptions.defaults(900).withTick(Duration.ofMillis(100), Duration.ofSeconds(30)));
        EventReader events = EventReader.open(port, "/api/live?watch=node-a/mlx5_0/1&watch=node-a/mlx5_0/9");
        JsonObject hello = events.next("hello", e -> true);
        assertEquals(new JsonArray(), hello.getJsonArray("watching"));
        assertEquals(new JsonArray().add("node-a/mlx5_0/1").add("node-a/mlx5_0/9"), hello.getJsonArray("pending"));
        assertEquals(0, feed.stats().watchedPorts(), "pending watches hold no history");

        long t0 = System.currentTimeMillis();
        store.accept(FixtureHosts.golden("node-a", t0, 1));
        JsonObject absent = events.next("error", e -> true);
        assertEquals("watch 'node-a/mlx5_0/9': node 'node-a' has no port mlx5_0/9", absent.getString("error"));
        JsonObject history = events.next("port", e -> e.getBoolean("reset"));
        assertEquals("node-a/mlx5_0/1", history.getString("key"));
        assertEquals(1, feed.stats().watchedPorts());
        events.close();
    }

    @Test
    void aClientThatStopsReadingIsThinnedThenDroppedWhileOthersKeepUp() throws Exception {
        // 300 nodes reporting every 50 ms: ~200 kB of delta per 50 ms tick, far more than a stalled
        // socket's buffers take in a few seconds
        long base = System.currentTimeMillis();
        AtomicLong step = new AtomicLong(1);
        Runnable feedAll = () -> {
            long s = step.getAndIncrement();
            for (int n = 0; n < 300; n++) {
                sample(String.format("node-%03d", n), base + s * 50, s);
            }
        };
        feedAll.run();
        // a small kernel send buffer: the stalled socket backs up into the write queue after a tick or two,
        // not after the megabytes that send-buffer autotuning would take in first (seconds on a loaded machine)
        start(LiveFeedOptions.defaults(900).withTick(Duration.ofMillis(50), Duration.ofMillis(1500))
                .withWriteQueueMaxBytes(64 * 1024), new HttpServerOptions().setSendBufferSize(64 * 1024));
        // one feed at a time: feeds slower than the period (a loaded machine) skip a beat instead of queueing
        // on the worker pool ahead of the feed's own ticks
        AtomicBoolean feeding = new AtomicBoolean();
        long feeder = vertx.setPeriodic(50, id -> {
            if (feeding.compareAndSet(false, true)) {
                vertx.executeBlocking(() -> {
                    feedAll.run();
                    return null;
                }, false).onComplete(done -> feeding.set(false));
            }
        });

        Socket stalled = new Socket();
        sockets.add(stalled);
        stalled.setReceiveBufferSize(4096); // before connect, so the advertised window stays small
        stalled.connect(new InetSocketAddress("127.0.0.1", port));
        OutputStream out = stalled.getOutputStream();
        out.write("GET /api/live HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        out.flush(); // and never read

        EventReader reader = EventReader.open(port, "/api/live");
        reader.next("hello", e -> true);
        AtomicLong fleetEvents = new AtomicLong();
        Thread drain = new Thread(() -> reader.drain("fleet", fleetEvents), "reading-client");
        drain.setDaemon(true);
        drain.start();

        waitFor(() -> feed.stats().updatesDropped() > 0, "ticks skipped for the stalled client", EVENT_LIMIT);
        waitFor(() -> feed.stats().clientsEvicted() == 1, "the stalled client disconnected after the stall timeout", EVENT_LIMIT);
        assertEquals(1, feed.stats().clients(), "the reading client stays");
        long before = fleetEvents.get();
        waitFor(() -> fleetEvents.get() > before, "the reading client keeps receiving after " + before + " fleet events",
                EVENT_LIMIT);
        vertx.cancelTimer(feeder);
        reader.close();
    }

    /** A plain socket reading the event stream (chunk-size lines are skipped: they never start with event/data). */
    private static final class EventReader implements AutoCloseable {
        private final Socket socket;
        private final BufferedReader in;

        private EventReader(Socket socket) throws Exception {
            this.socket = socket;
            this.in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
        }

        static EventReader open(int port, String path) throws Exception {
            Socket socket = new Socket("127.0.0.1", port);
            socket.setSoTimeout(10_000);
            socket.getOutputStream().write(("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            EventReader reader = new EventReader(socket);
            String status = reader.in.readLine();
            assertEquals("HTTP/1.1 200 OK", status);
            return reader;
        }

        /**
         * The next event called {@code name} whose data matches, within {@link #EVENT_LIMIT}: a stream that keeps
         * sending other events (every tick sends a fleet event) must not hold a failing test forever.
         */
        JsonObject next(String name, Predicate<JsonObject> matching) throws Exception {
            long deadline = System.nanoTime() + EVENT_LIMIT.toNanos();
            String event = null;
            for (String line; (line = in.readLine()) != null; ) {
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("no matching '" + name + "' event within " + EVENT_LIMIT);
                }
                if (line.startsWith("event: ")) {
                    event = line.substring(7);
                } else if (line.startsWith("data: ") && name.equals(event)) {
                    JsonObject data = new JsonObject(line.substring(6));
                    if (matching.test(data)) {
                        return data;
                    }
                }
            }
            throw new AssertionError("stream ended before a '" + name + "' event");
        }

        void drain(String name, AtomicLong count) {
            try {
                for (String line; (line = in.readLine()) != null; ) {
                    if (line.equals("event: " + name)) {
                        count.incrementAndGet();
                    }
                }
            } catch (Exception e) {
                // the test closed the socket
            }
        }

        @Override
        public void close() throws Exception {
            socket.close();
        }
    }
}
