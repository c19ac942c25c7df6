package io.rdmamon.collector.probe;

import io.rdmamon.collector.Collector;
import io.rdmamon.collector.CollectorConfig;
import io.rdmamon.collector.PromtoolCheck;
import io.rdmamon.collector.auth.Role;
import io.rdmamon.collector.auth.TokenEntry;
import io.rdmamon.protocol.probe.PerftestResult;
import io.rdmamon.protocol.probe.ProbePhase;
import io.rdmamon.protocol.probe.ProbeRole;
import io.rdmamon.protocol.wire.Frame;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.http.WebSocketClient;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.UnaryOperator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Probes through the real REST API and the real agent channel: the agents are WebSocket clients
 * speaking the real codec ({@link FakeAgent}), scripted to answer probe starts as an agent would.
 */
@ExtendWith(VertxExtension.class)
class ProbeApiTest {
    private static final String AGENT = "agent-secret";
    private static final String VIEWER = "viewer-secret";
    private static final String OPERATOR = "operator-secret-token";
    private static final PerftestResult RESULT = new PerftestResult(65_536, 178_000, 95.1e9, 92.0e9, 175_450.0);

    @TempDir
    Path dir;
    private Vertx vertx;
    private Collector.Running collector;
    private WebClient http;
    private WebSocketClient wsClient;
    private final List<FakeAgent> agents = new ArrayList<>();

    private void start(Vertx v, UnaryOperator<ProbeConfig> limits) throws Exception {
        vertx = v;
        ProbeConfig probes = limits.apply(ProbeConfig.defaults().withCooldown(Duration.ZERO)
                .withTimeouts(Duration.ofMillis(2000), Duration.ofMillis(2000)).withAuditLog(dir.resolve("audit.log")));
        CollectorConfig config = CollectorConfig.defaults().withListen("127.0.0.1:0").withTokens(List.of(
                new TokenEntry(Role.AGENT, AGENT, null), new TokenEntry(Role.VIEWER, VIEWER, null),
                new TokenEntry(Role.OPERATOR, OPERATOR, null))).withProbes(probes);
        collector = await(Collector.start(vertx, config));
        http = WebClient.create(vertx);
        wsClient = vertx.createWebSocketClient();
    }

    @AfterEach
    void stop() throws Exception {
        if (collector != null) {
            await(collector.close());
        }
    }

    private FakeAgent agent(String node) throws Exception {
        FakeAgent agent = new FakeAgent(wsClient, collector.port(), AGENT, node);
        agents.add(agent);
        return agent;
    }

    static <T> T await(Future<T> future) throws Exception {
        return future.toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    private static JsonObject request(String src, String dst) {
        return new JsonObject()
                .put("source", new JsonObject().put("node", src).put("device", "mlx5_0").put("port", 1))
                .put("destination", new JsonObject().put("node", dst).put("device", "mlx5_0").put("port", 1))
                .put("durationSeconds", 2);
    }

    private HttpResponse<Buffer> send(HttpMethod method, String path, String token, Buffer body) throws Exception {
        var req = http.request(method, collector.port(), "127.0.0.1", path);
        if (token != null) {
            req.putHeader("Authorization", "Bearer " + token);
        }
        return await(body == null ? req.send() : req.sendBuffer(body));
    }

    private HttpResponse<Buffer> post(JsonObject body, String token) throws Exception {
        return send(HttpMethod.POST, "/api/probes", token, body.toBuffer());
    }

    private JsonObject probe(String id) throws Exception {
        HttpResponse<Buffer> response = send(HttpMethod.GET, "/api/probes/" + id, VIEWER, null);
        assertEquals(200, response.statusCode(), response.bodyAsString());
        return response.bodyAsJsonObject();
    }

    private String started(JsonObject body) throws Exception {
        HttpResponse<Buffer> response = post(body, OPERATOR);
        assertEquals(202, response.statusCode(), response.bodyAsString());
        JsonObject probe = response.bodyAsJsonObject();
        assertEquals("queued", probe.getString("state"));
        return probe.getString("id");
    }

    private void waitForState(String id, String state) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        String last = null;
        while (System.nanoTime() < deadline) {
            last = probe(id).getString("state");
            if (state.equals(last)) {
                return;
            }
            Thread.sleep(20);
        }
        throw new AssertionError("probe " + id + " did not reach " + state + " (last " + last + ")");
    }

    private static void waitFor(BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting for " + what);
            }
            Thread.sleep(20);
        }
    }

    /** Collects the {@code probe} events of {@code /api/live}. */
    private List<JsonObject> liveProbeEvents() throws Exception {
        List<JsonObject> events = new CopyOnWriteArrayList<>();
        HttpClient client = vertx.createHttpClient();
        HttpClientResponse response = await(client.request(new RequestOptions().setMethod(HttpMethod.GET)
                .setHost("127.0.0.1").setPort(collector.port()).setURI("/api/live")
                .putHeader("Authorization", "Bearer " + VIEWER)).compose(r -> r.send()));
        assertEquals(200, response.statusCode());
        StringBuilder pending = new StringBuilder();
        response.handler(chunk -> {
            pending.append(chunk.toString());
            int end;
            while ((end = pending.indexOf("\n\n")) >= 0) {
                String message = pending.substring(0, end);
                pending.delete(0, end + 2);
                if (message.startsWith("event: probe\n")) {
                    events.add(new JsonObject(message.substring(message.indexOf("data: ") + 6)));
                }
            }
        });
        return events;
    }

    @Test
    void happyPathRunsServerThenClientAndExportsTheResult(Vertx v) throws Exception {
        start(v, c -> c);
        FakeAgent src = agent("gpu-01");
        FakeAgent dst = agent("gpu-02");
        List<JsonObject> live = liveProbeEvents();

        String id = started(request("gpu-01", "gpu-02").put("sizeBytes", 65536).put("qps", 2));
        Frame.ProbeStart server = dst.nextStart();
        assertEquals(ProbeRole.SERVER, server.role());
        assertEquals(id, server.probeId());
        assertEquals(0, server.tcpPort(), "the agent picks the server's port");
        assertEquals("mlx5_0", server.spec().device());
        assertEquals(2, server.spec().qps());
        assertEquals(2, server.spec().durationSeconds());

        dst.listening(id, 18_515);
        Frame.ProbeStart client = src.nextStart();
        assertEquals(ProbeRole.CLIENT, client.role());
        assertEquals("192.168.1.2", client.serverAddress(), "the IPv4 of the destination's RoCE v2 GID");
        assertEquals(18_515, client.tcpPort(), "the client gets the server's port");
        JsonObject ready = probe(id);
        assertEquals("server-ready", ready.getString("state"));
        assertEquals(18_515, ready.getJsonObject("destination").getInteger("tcpPort"));
        assertEquals("192.168.1.2", ready.getJsonObject("destination").getString("address"));

        src.report(id, ProbeRole.CLIENT, ProbePhase.RUNNING, 0, null, null, null, List.of());
        waitForState(id, "running");
        Thread.sleep(300);
        JsonObject running = probe(id);
        double progress = running.getDouble("progress");
        assertTrue(progress > 0.1 && progress < 0.5, "progress = elapsed / 2 s: " + progress);
        assertTrue(running.getLong("startedMillis") > 0);
        assertNull(running.getValue("finishedMillis"));

        src.report(id, ProbeRole.CLIENT, ProbePhase.DONE, 0, RESULT, 0, null,
                List.of(" #bytes     #iterations    BW peak[Gb/sec]    BW average[Gb/sec]   MsgRate[Mpps]",
                        " 65536      178000           95.10              92.00              0.175450"));
        waitForState(id, "done");
        JsonObject done = probe(id);
        JsonObject result = done.getJsonObject("result");
        // 100 Gb/s ports: link rate 12.5e9 B/s x 8
        assertEquals(100e9, done.getDouble("linkRateBitsPerSecond"), 1);
        assertEquals(92e9, result.getDouble("bandwidthBitsPerSecond"), 1);
        assertEquals(95.1e9, result.getDouble("peakBitsPerSecond"), 1);
        assertEquals(0.92, result.getDouble("linkRatio"), 1e-9);
        assertTrue(result.getBoolean("passed"));
        assertEquals(1.0, done.getDouble("progress"));
        assertEquals(0, done.getInteger("exitCode"));
        assertNull(done.getValue("error"));
        assertEquals(2, done.getJsonArray("output").size());
        assertTrue(done.getString("requestedBy").startsWith("operator:"));
        assertEquals(id, dst.nextCancel().probeId(), "the server still running is cancelled");

        String metrics = send(HttpMethod.GET, "/metrics", VIEWER, null).bodyAsString();
        String labels = "{dst_device=\"mlx5_0\",dst_node=\"gpu-02\",dst_port=\"1\",src_device=\"mlx5_0\","
                + "src_node=\"gpu-01\",src_port=\"1\"}";
        assertTrue(metrics.contains("rdma_probe_bandwidth_bits_per_second" + labels + " 9.2E10"), metrics);
        assertTrue(metrics.contains("rdma_probe_success" + labels + " 1.0"), metrics);
        assertTrue(metrics.contains("rdma_probe_timestamp_seconds" + labels + " "
                + done.getLong("finishedMillis") / 1000.0), metrics);
        if (Files.isExecutable(Path.of("/usr/bin/promtool"))) {
            // the contract name (DESIGN.md §5, grafana/dashboards/probes.json) is in bits, which promtool's
            // unit lint flags; that is the only complaint allowed: the exposition itself must parse
            String complaints = PromtoolCheck.check(metrics).lines()
                    .filter(l -> !l.equals("rdma_probe_bandwidth_bits_per_second use base unit \"bytes\" instead of \"bits\""))
                    .filter(l -> !l.equals("(exit 3)")).reduce("", String::concat);
            assertEquals("", complaints);
        }

        waitFor(() -> live.size() >= 4, "four live probe events");
        assertEquals(List.of("queued", "server-ready", "running", "done"),
                live.stream().map(e -> e.getString("state")).toList());
        assertEquals(0.92, live.get(3).getJsonObject("result").getDouble("linkRatio"), 1e-9);

        List<String> audit = Files.readAllLines(dir.resolve("audit.log"));
        assertEquals(1, audit.size(), audit.toString());
        JsonObject line = new JsonObject(audit.get(0));
        assertEquals("start", line.getString("action"));
        assertEquals(id, line.getString("probeId"));
        assertEquals("gpu-01", line.getJsonObject("source").getString("node"));
        assertEquals(2, line.getJsonObject("parameters").getInteger("qps"));
        assertEquals("operator", line.getJsonObject("who").getString("role"));
        assertEquals(Requester.fingerprint(OPERATOR), line.getJsonObject("who").getString("tokenFingerprint"));
        assertEquals("127.0.0.1", line.getJsonObject("who").getString("remote"));
        assertTrue(line.getLong("timeMillis") > 0);
        assertFalse(audit.get(0).contains(OPERATOR), "the token never reaches the audit log");
    }
}
