package io.rdmamon.collector.probe;

import io.rdmamon.collector.Collector;
import io.rdmamon.collector.CollectorConfig;
import io.rdmamon.collector.HttpLimits;
import io.rdmamon.collector.SeriesValue;
import io.rdmamon.protocol.testing.PromtoolCheck;
import io.rdmamon.collector.auth.Role;
import io.rdmamon.collector.auth.TokenEntry;
import io.rdmamon.protocol.probe.PerftestResult;
import io.rdmamon.protocol.probe.ProbePhase;
import io.rdmamon.protocol.probe.ProbeRole;
import io.rdmamon.protocol.testing.Waits;
import io.rdmamon.protocol.wire.Frame;

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

import java.util.function.UnaryOperator;

import static io.rdmamon.protocol.testing.Waits.await;
import static io.rdmamon.protocol.testing.Waits.waitFor;
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
    private static final Duration EVENT_LIMIT = Duration.ofSeconds(5);
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
    private HttpLimits httpLimits = HttpLimits.defaults();

    private void start(Vertx v, UnaryOperator<ProbeConfig> limits) throws Exception {
        vertx = v;
        ProbeConfig probes = limits.apply(ProbeConfig.defaults().withCooldown(Duration.ZERO)
                .withTimeouts(Duration.ofMillis(2000), Duration.ofMillis(2000)).withAuditLog(dir.resolve("audit.log")));
        CollectorConfig config = CollectorConfig.defaults().withListen("127.0.0.1:0").withTokens(List.of(
                new TokenEntry(Role.AGENT, AGENT, null), new TokenEntry(Role.VIEWER, VIEWER, null),
                new TokenEntry(Role.OPERATOR, OPERATOR, null))).withProbes(probes).withHttp(httpLimits);
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

    /** A probe gpu-01 → gpu-02 whose server listens (on 18515) and whose client was told to start. */
    private record RunningProbe(String id, FakeAgent src, FakeAgent dst) {
    }

    private RunningProbe clientStarted(Vertx v) throws Exception {
        return clientStarted(v, c -> c);
    }

    private RunningProbe clientStarted(Vertx v, UnaryOperator<ProbeConfig> limits) throws Exception {
        start(v, limits);
        FakeAgent src = agent("gpu-01");
        FakeAgent dst = agent("gpu-02");
        String id = started(request("gpu-01", "gpu-02"));
        dst.nextStart();
        dst.listening(id, 18_515);
        src.nextStart();
        return new RunningProbe(id, src, dst);
    }

    private void waitForState(String id, String state) throws Exception {
        String[] last = {null};
        try {
            waitFor(() -> state.equals(last[0] = stateOf(id)), "probe " + id + " reaching " + state, Duration.ofSeconds(5));
        } catch (AssertionError timedOut) {
            throw new AssertionError(timedOut.getMessage() + " (last " + last[0] + ")", timedOut);
        }
    }

    private String stateOf(String id) {
        try {
            return probe(id).getString("state");
        } catch (Exception e) {
            throw new AssertionError("GET probe " + id, e);
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
        JsonObject running = Waits.poll("progress past 0.1", () -> probe(id), p -> p.getDouble("progress") > 0.1,
                EVENT_LIMIT, Duration.ofMillis(50));
        double progress = running.getDouble("progress");
        assertTrue(progress < 0.5, "progress = elapsed / 2 s: " + progress);
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
            // the contract name (docs/architecture.md "Metric names", grafana/dashboards/probes.json) is in bits, which
            // promtool's
            // unit lint flags; that is the only complaint allowed: the exposition itself must parse
            String complaints = PromtoolCheck.check(metrics).lines()
                    .filter(l -> !l.equals("rdma_probe_bandwidth_bits_per_second use base unit \"bytes\" instead of \"bits\""))
                    .filter(l -> !l.equals("(exit 3)")).reduce("", String::concat);
            assertEquals("", complaints);
        }

        waitFor(() -> live.size() >= 4, "four live probe events", EVENT_LIMIT);
        assertEquals(List.of("queued", "server-ready", "running", "done"),
                live.stream().map(e -> e.getString("state")).toList());
        // the dashboard draws these as they are: where on the path each state is, and whether it is final
        assertEquals(List.of(0, 1, 2, 3), live.stream().map(e -> e.getInteger("step")).toList());
        assertEquals(List.of(false, false, false, true), live.stream().map(e -> e.getBoolean("terminal")).toList());
        assertEquals(0.92, live.get(3).getJsonObject("result").getDouble("linkRatio"), 1e-9);

        JsonObject line = audit(1).get(0);
        assertEquals("start", line.getString("action"));
        assertEquals(id, line.getString("probeId"));
        assertEquals("gpu-01", line.getJsonObject("source").getString("node"));
        assertEquals(2, line.getJsonObject("parameters").getInteger("qps"));
        assertEquals("operator", line.getJsonObject("who").getString("role"));
        assertEquals(Requester.fingerprint(OPERATOR), line.getJsonObject("who").getString("tokenFingerprint"));
        assertEquals("127.0.0.1", line.getJsonObject("who").getString("remote"));
        assertTrue(line.getLong("timeMillis") > 0);
        assertFalse(Files.readString(dir.resolve("audit.log")).contains(OPERATOR), "the token never reaches the audit log");
    }

    @Test
    void refusesInvalidRequestsNamingTheFieldAndAuditsThem(Vertx v) throws Exception {
        start(v, c -> c.withMaxDurationSeconds(10));
        agent("gpu-01");
        agent("gpu-02");
        assertError(400, "gidIndex: 0 on the destination (gpu-02 mlx5_0/1) is IB/RoCE v1",
                post(request("gpu-01", "gpu-02").put("gidIndex", 0), OPERATOR));
        assertError(400, "gidIndex: 7 is not in the GID table of the destination (gpu-02 mlx5_0/1)",
                post(request("gpu-01", "gpu-02").put("gidIndex", 7), OPERATOR));
        assertError(404, "source.node: unknown node 'gpu-99'", post(request("gpu-99", "gpu-02"), OPERATOR));
        JsonObject unknownDevice = request("gpu-01", "gpu-02");
        unknownDevice.getJsonObject("destination").put("device", "mlx5_9");
        assertError(404, "destination.device: gpu-02 has no device 'mlx5_9'", post(unknownDevice, OPERATOR));
        JsonObject unknownPort = request("gpu-01", "gpu-02");
        unknownPort.getJsonObject("source").put("port", 3);
        assertError(404, "source.port: gpu-01 mlx5_0 has no port 3", post(unknownPort, OPERATOR));
        assertError(400, "durationSeconds: 11 is over the maximum of 10 s",
                post(request("gpu-01", "gpu-02").put("durationSeconds", 11), OPERATOR));
        assertError(400, "qps: 65 is outside 1..64", post(request("gpu-01", "gpu-02").put("qps", 65), OPERATOR));
        assertError(400, "sizeBytes: expected a 64-bit integer, got number",
                post(request("gpu-01", "gpu-02").put("sizeBytes", 1.5), OPERATOR));
        // the node-name rule of the agents (Names.NODE_NAME): no ':' (was accepted up to 253 characters of anything)
        assertError(400, "source.node: must be a node name", post(request("gpu-01:9100", "gpu-02"), OPERATOR));
        assertError(400, "unknown key 'color' (known: [bidirectional, destination,", post(request("gpu-01", "gpu-02").put("color", "red"), OPERATOR));
        assertError(400, "body: not a JSON object",
                send(HttpMethod.POST, "/api/probes", OPERATOR, Buffer.buffer("{\"source\": ")));
        assertError(403, "needs [operator]", post(request("gpu-01", "gpu-02"), VIEWER));
        assertError(401, "missing or unknown bearer token", post(request("gpu-01", "gpu-02"), null));
        assertError(401, "missing or unknown bearer token", post(request("gpu-01", "gpu-02"), "guessed-token"));
        assertEquals(413, send(HttpMethod.POST, "/api/probes", OPERATOR,
                Buffer.buffer("{\"pad\":\"" + "x".repeat(ProbeApi.MAX_BODY_BYTES) + "\"}")).statusCode());
        assertError(404, "unknown probe 'pr-nope'", send(HttpMethod.GET, "/api/probes/pr-nope", VIEWER, null));
        assertTrue(send(HttpMethod.GET, "/api/probes", VIEWER, null).bodyAsJsonObject().getJsonArray("probes").isEmpty());

        List<JsonObject> audit = audit(12);
        assertTrue(audit.stream().allMatch(l -> l.getString("action").equals("refuse")), audit.toString());
        assertEquals("gpu-99", audit.get(2).getJsonObject("source").getString("node"));
        assertTrue(audit.get(2).getString("detail").startsWith("404 source.node"), audit.get(2).encode());
        JsonObject viewer = audit.get(11);
        assertEquals("viewer", viewer.getJsonObject("who").getString("role"));
        assertEquals(Requester.fingerprint(VIEWER), viewer.getJsonObject("who").getString("tokenFingerprint"));
        assertTrue(viewer.getString("detail").startsWith("403"), viewer.encode());
        String raw = Files.readString(dir.resolve("audit.log"));
        assertFalse(raw.contains(VIEWER) || raw.contains(OPERATOR), "no token in the audit log");
    }

    @Test
    void anAgentWithoutProbesIsRefusedAtOnceAndGetsNoFrame(Vertx v) throws Exception {
        start(v, c -> c);
        agent("gpu-01");
        FakeAgent sampling = new FakeAgent(wsClient, collector.port(), AGENT, "gpu-02", List.of());
        agents.add(sampling);
        assertError(503, "destination: the agent of gpu-02 does not run probes (start it with --allow-probes)",
                post(request("gpu-01", "gpu-02"), OPERATOR));
        assertTrue(send(HttpMethod.GET, "/api/probes", VIEWER, null).bodyAsJsonObject().getJsonArray("probes").isEmpty());
        sampling.secondSampleAcknowledgedFirst(); // no probe frame reaches an agent that did not offer probes
    }

    @Test
    void onePortOneProbeAndAGlobalCap(Vertx v) throws Exception {
        start(v, c -> c.withMaxConcurrent(1));
        agent("gpu-01");
        FakeAgent dst = agent("gpu-02");
        agent("gpu-03");
        agent("gpu-04");
        String id = started(request("gpu-01", "gpu-02"));
        dst.nextStart();
        assertError(409, "port gpu-02 mlx5_0/1 is already in probe " + id, post(request("gpu-03", "gpu-02"), OPERATOR));
        assertError(429, "already 1 probes running (probes.maxConcurrent 1)", post(request("gpu-03", "gpu-04"), OPERATOR));
    }

    @Test
    void deleteCancelsBothSidesThenThePairCoolsDown(Vertx v) throws Exception {
        RunningProbe running = clientStarted(v, c -> c.withCooldown(Duration.ofSeconds(30)));
        FakeAgent src = running.src();
        FakeAgent dst = running.dst();
        String id = running.id();
        src.report(id, ProbeRole.CLIENT, ProbePhase.RUNNING, 0, null, null, null, List.of());
        waitForState(id, "running");

        HttpResponse<Buffer> cancelled = send(HttpMethod.DELETE, "/api/probes/" + id, OPERATOR, null);
        assertEquals(200, cancelled.statusCode(), cancelled.bodyAsString());
        assertEquals("cancelled", cancelled.bodyAsJsonObject().getString("state"));
        assertEquals(id, src.nextCancel().probeId());
        assertEquals(id, dst.nextCancel().probeId());
        assertError(409, "already finished (cancelled)", send(HttpMethod.DELETE, "/api/probes/" + id, OPERATOR, null));
        assertError(403, "needs [operator]", send(HttpMethod.DELETE, "/api/probes/" + id, VIEWER, null));

        HttpResponse<Buffer> cooling = post(request("gpu-02", "gpu-01"), OPERATOR);
        assertError(409, "cooldown is 30 s", cooling);
        long retryAfter = Long.parseLong(cooling.getHeader("Retry-After"));
        assertTrue(retryAfter >= 29 && retryAfter <= 30, "Retry-After " + retryAfter);
        String metrics = send(HttpMethod.GET, "/metrics", VIEWER, null).bodyAsString();
        assertFalse(metrics.contains("rdma_probe_"), "a cancelled probe is no result");

        List<JsonObject> audit = audit(3);
        assertEquals(List.of("start", "cancel", "refuse"), audit.stream().map(l -> l.getString("action")).toList());
        assertEquals(id, audit.get(1).getString("probeId"));
    }

    @Test
    void clientFailureKeepsPerftestsWordsAndCancelsTheServer(Vertx v) throws Exception {
        RunningProbe running = clientStarted(v);
        String id = running.id();
        String perftest = " Couldn't connect to 192.168.1.2:18515\n Unable to init the socket connection";
        running.src().report(id, ProbeRole.CLIENT, ProbePhase.FAILED, 0, null, 1, perftest,
                List.of("Couldn't connect to 192.168.1.2:18515", "Unable to init the socket connection"));
        waitForState(id, "failed");
        JsonObject failed = probe(id);
        assertEquals(perftest, failed.getString("error"));
        assertEquals(1, failed.getInteger("exitCode"));
        assertNull(failed.getValue("result"));
        assertEquals(2, failed.getJsonArray("output").size());
        Frame.ProbeCancel cancel = running.dst().nextCancel();
        assertEquals(id, cancel.probeId());
        assertTrue(cancel.reason().contains("Couldn't connect"), cancel.reason());
        String metrics = send(HttpMethod.GET, "/metrics", VIEWER, null).bodyAsString();
        assertTrue(metrics.contains("rdma_probe_success{dst_device=\"mlx5_0\",dst_node=\"gpu-02\",dst_port=\"1\","
                + "src_device=\"mlx5_0\",src_node=\"gpu-01\",src_port=\"1\"} 0.0"), metrics);
        assertFalse(metrics.contains("rdma_probe_bandwidth_bits_per_second{"), "no bandwidth without a result");
    }

    @Test
    void agentDisconnectFailsTheProbeNamingTheNode(Vertx v) throws Exception {
        RunningProbe running = clientStarted(v);
        String id = running.id();
        await(running.src().close());
        waitForState(id, "failed");
        assertEquals("agent of gpu-01 (source) disconnected", probe(id).getString("error"));
        assertEquals(id, running.dst().nextCancel().probeId());
    }

    @Test
    void serverThatNeverListensTimesOutAndIsCancelled(Vertx v) throws Exception {
        start(v, c -> c.withTimeouts(Duration.ofMillis(300), EVENT_LIMIT));
        FakeAgent src = agent("gpu-01");
        FakeAgent dst = agent("gpu-02");
        String id = started(request("gpu-01", "gpu-02"));
        dst.nextStart();
        waitForState(id, "failed");
        assertTrue(probe(id).getString("error").startsWith("the destination agent (gpu-02) did not report its "
                + "perftest server listening within 0.3 s"), probe(id).getString("error"));
        assertEquals(id, dst.nextCancel().probeId());
        assertTrue(src.pending().isEmpty(), "the client was never started: " + src.pending());
    }

    @Test
    void historyIsBoundedNewestFirstAndInfiniBandUsesTheAgentAddress(Vertx v) throws Exception {
        start(v, c -> c.withHistorySize(2));
        FakeAgent src = agent("gpu-01");
        FakeAgent dst = agent("gpu-02");
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            JsonObject ib = request("gpu-01", "gpu-02");
            ib.getJsonObject("source").put("port", 2); // mlx5_0 port 2 is InfiniBand
            ib.getJsonObject("destination").put("port", 2);
            String id = started(ib);
            ids.add(id);
            dst.nextStart();
            dst.listening(id, 18_515 + i);
            Frame.ProbeStart client = src.nextStart();
            assertEquals("127.0.0.1", client.serverAddress(), "InfiniBand: the address the agent connects from");
            src.report(id, ProbeRole.CLIENT, ProbePhase.DONE, 0, RESULT, 0, null, List.of());
            waitForState(id, "done");
            dst.nextCancel();
        }
        JsonObject list = send(HttpMethod.GET, "/api/probes", VIEWER, null).bodyAsJsonObject();
        assertEquals(List.of(ids.get(2), ids.get(1)), list.getJsonArray("probes").stream()
                .map(p -> ((JsonObject) p).getString("id")).toList());
        // 10 Gb/s IB port: 92 Gb/s is above the link rate, so the link ratio is 9.2
        assertEquals(9.2, list.getJsonArray("probes").getJsonObject(0).getJsonObject("result").getDouble("linkRatio"), 1e-9);
        JsonObject limits = list.getJsonObject("limits");
        assertEquals(2, limits.getInteger("maxConcurrent"));
        assertEquals(64, limits.getInteger("maxQps"));
        assertEquals(0.9, limits.getDouble("passRatio"));
        assertEquals(new JsonObject().put("sizeBytes", 65536).put("durationSeconds", 5).put("qps", 1),
                list.getJsonObject("defaults"));
        assertEquals(List.of("queued", "server-ready", "running", "done"), list.getJsonArray("steps").getList());
        assertEquals(404, send(HttpMethod.GET, "/api/probes/" + ids.get(0), VIEWER, null).statusCode());
    }

    private static void assertError(int status, String fragment, HttpResponse<Buffer> response) {
        assertEquals(status, response.statusCode(), response.bodyAsString());
        String error = response.bodyAsJsonObject().getString("error");
        assertTrue(error.contains(fragment), "'" + error + "' should contain '" + fragment + "'");
    }

    /** The audit file once it holds {@code lines} lines (it is written asynchronously). */
    @Test
    void aFloodOfRefusedStartsIsAuditedAsOneLineThenASummaryAndCountedInFull(Vertx v) throws Exception {
        // a window far longer than 400 refused requests take on a loaded machine (they took over 2 s)
        httpLimits = HttpLimits.defaults().withRefusalLogWindow(Duration.ofSeconds(15));
        start(v, c -> c);
        for (int i = 0; i < 400; i++) {
            assertEquals(403, post(request("gpu-01", "gpu-02"), VIEWER).statusCode());
        }
        assertEquals(400.0, SeriesValue.of(collector.registry(), "rdmamon_collector_probe_refusals_total{status=\"403\"}"),
                "every refusal counted");
        assertEquals(1, Files.readAllLines(dir.resolve("audit.log")).size(), "one line while the window is open");
        List<JsonObject> audit = audit(2, Duration.ofSeconds(30)); // every line parses as JSON
        assertEquals("refuse", audit.get(0).getString("action"));
        JsonObject summary = audit.get(1);
        assertEquals("refuse-summary", summary.getString("action"));
        assertEquals(399, summary.getLong("count"));
        assertEquals(15_000, summary.getLong("windowMillis"));
        assertEquals(audit.get(0).getString("detail"), summary.getString("detail"));
        assertEquals("127.0.0.1", summary.getJsonObject("who").getString("remote"));

        assertEquals(403, post(request("gpu-01", "gpu-02"), VIEWER).statusCode());
        assertEquals("refuse", audit(3).get(2).getString("action"), "a new window starts with a full line");
    }

    private List<JsonObject> audit(int lines) throws Exception {
        return audit(lines, EVENT_LIMIT);
    }

    private List<JsonObject> audit(int lines, Duration limit) throws Exception {
        Path file = dir.resolve("audit.log");
        waitFor(() -> {
            try {
                return Files.readAllLines(file).size() >= lines;
            } catch (java.io.IOException e) {
                return false;
            }
        }, lines + " audit lines", limit);
        List<String> text = Files.readAllLines(file);
        assertEquals(lines, text.size(), text.toString());
        return text.stream().map(JsonObject::new).toList();
    }
}
