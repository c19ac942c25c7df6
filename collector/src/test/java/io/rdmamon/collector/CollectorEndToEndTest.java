package io.rdmamon.collector;

import io.rdmamon.collector.config.ConfigException;
import io.rdmamon.protocol.exposition.MetricSelection;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rdmamon.collector.auth.Role;
import io.rdmamon.collector.auth.TokenEntry;
import io.rdmamon.protocol.testing.FixtureHosts;
import io.rdmamon.protocol.wire.Frame;
import io.rdmamon.protocol.wire.FrameCodec;
import io.rdmamon.protocol.wire.OptionalFrames;
import io.rdmamon.protocol.testing.FabricSweeps;
import io.rdmamon.protocol.wire.FabricWire;
import io.rdmamon.protocol.wire.SampleEncoder;
import io.rdmamon.protocol.wire.WireFormat;
import io.rdmamon.collector.ingest.AgentIngest;
import io.rdmamon.protocol.testing.PromtoolCheck;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.UpgradeRejectedException;
import io.vertx.core.http.WebSocketClient;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static io.rdmamon.protocol.testing.Waits.await;
import static io.rdmamon.protocol.testing.Waits.poll;
import static io.rdmamon.protocol.testing.Waits.waitFor;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** The collector over loopback: ingest, REST, /metrics, faults (malformed frame, unknown token), staleness. */
@ExtendWith(VertxExtension.class)
class CollectorEndToEndTest {
    private static final String AGENT_TOKEN = "agent-secret-1";
    /** Once any token is configured, reads need a viewer token (an unconfigured role is refused, not open). */
    private static final String VIEWER_TOKEN = "viewer-secret-1";
    private static final ObjectMapper JSON = new ObjectMapper();
    private final FrameCodec codec = new FrameCodec();
    private Vertx vertx;
    private Collector.Running collector;
    private WebClient http;
    private WebSocketClient wsClient;

    @BeforeEach
    void start(Vertx vertx) throws Exception {
        this.vertx = vertx;
        CollectorConfig config = CollectorConfig.defaults().withListen("127.0.0.1:0")
                .withTokens(List.of(new TokenEntry(Role.AGENT, AGENT_TOKEN, null), new TokenEntry(Role.VIEWER, VIEWER_TOKEN, null)))
                .withStaleness(2, Duration.ofSeconds(5));
        collector = await(Collector.start(vertx, config));
        http = WebClient.create(vertx);
        wsClient = vertx.createWebSocketClient();
    }

    private RawAgent rawAgent(String token) throws Exception {
        return new RawAgent(wsClient, collector.port(), token);
    }

    /** Streams {@link FixtureHosts#golden} samples of one node, as an agent with the given interval would. */
    private static final class GoldenStream {
        private final RawAgent agent;
        private final String node;
        private final SampleEncoder encoder;

        GoldenStream(RawAgent agent, String node, long intervalMillis) {
            this.agent = agent;
            this.node = node;
            this.encoder = new SampleEncoder(node, "test", intervalMillis);
        }

        /** Sends sample {@code seq} taken at {@code ts} with counters at {@code step} and waits for its ack. */
        void send(long ts, long step, long seq) throws Exception {
            agent.sample(encoder, FixtureHosts.golden(node, ts, step), seq);
        }
    }

    @Test
    void ingestedSamplesShowInRestAndMetrics() throws Exception {
        GoldenStream agent = new GoldenStream(rawAgent(AGENT_TOKEN), "gpu-01", 60_000);
        agent.send(1_000_000L, 1, 1);
        agent.send(1_002_000L, 3, 2);

        JsonNode list = JSON.readTree(get("/api/nodes", null).bodyAsString());
        JsonNode node = list.get("nodes").get(0);
        assertEquals("gpu-01", node.get("node").asText());
        assertTrue(node.get("up").asBoolean() && node.get("connected").asBoolean());
        assertEquals(3, node.get("portCount").asInt());

        JsonNode detail = JSON.readTree(get("/api/nodes/gpu-01", null).bodyAsString());
        JsonNode roce = detail.get("devices").get(1).get("ports").get(0);
        // port_rcv_data went 4e6 → 12e6 bytes in 2 s
        assertEquals(4_000_000.0, roce.get("counters").get("port_rcv_data").get("perSecond").asDouble());
        assertEquals(4_000_000.0, roce.get("rates").get("rxBytesPerSecond").asDouble());
        assertEquals("18446744073709551614", roce.get("hwCounters").get("rp_cnp_handled").get("value").asText());
        assertEquals("192.168.1.2", roce.get("gids").get(1).get("ipv4").asText());
        assertEquals(3, roce.get("ethtool").get("pfcEnabledPriorities").get(0).asInt());
        JsonNode erdma = detail.get("devices").get(0).get("ports").get(0);
        assertEquals(5_000.0, erdma.get("rates").get("txBytesPerSecond").asDouble());
        // the port facts the dashboard renders as they are (PortTransport, IbPort.isActive, GidAdvice)
        assertEquals(List.of("roce", "true", "3", "192.168.1.2", "true"), List.of(roce.get("transport").asText(),
                roce.get("active").asText(), roce.get("gidAdvice").get("index").asText(),
                roce.get("gidAdvice").get("ipv4").asText(), roce.get("gidAdvice").get("ok").asText()));
        assertTrue(roce.get("gidAdvice").get("text").asText().startsWith("Use NCCL_IB_GID_INDEX=3"));
        assertEquals(List.of("iwarp", "true"), List.of(erdma.get("transport").asText(), erdma.get("active").asText()));
        assertTrue(erdma.get("gidAdvice").get("index").isNull());
        JsonNode ib = detail.get("devices").get(1).get("ports").get(1);
        assertEquals(List.of("infiniband", "false", "true"), List.of(ib.get("transport").asText(),
                ib.get("active").asText(), ib.get("gidAdvice").get("ok").asText()));
        assertEquals(List.of("iwarp", "roce", "infiniband"), List.of(node.get("ports").get(0).get("transport").asText(),
                node.get("ports").get(1).get("transport").asText(), node.get("ports").get(2).get("transport").asText()));
        assertEquals("Operation not supported", detail.get("sources").get(3).get("error").asText().replaceAll(".*: ", ""));

        HttpResponse<Buffer> missing = get("/api/nodes/nope", null);
        assertEquals(404, missing.statusCode());
        assertEquals("unknown node 'nope'", JSON.readTree(missing.bodyAsString()).get("error").asText());

        // the nccl-env advice of the node's last sample (this wire carries no QoS configuration: NCCL_IB_TC unset)
        JsonNode nccl = JSON.readTree(get("/api/nodes/gpu-01/nccl", null).bodyAsString());
        assertEquals(List.of("export NCCL_IB_HCA==mlx5_0:1  # 1 active RDMA port (exact match, so no other device is picked)",
                "export NCCL_IB_GID_INDEX=3  # RoCE v2 IPv4 GID on mlx5_0:1; the fleet agrees",
                "# NCCL_IB_TC unset: no QoS configuration read on the RoCE ports"),
                List.of(nccl.get("export").get(0).asText(), nccl.get("export").get(1).asText(),
                        nccl.get("export").get(2).asText()));
        assertEquals("NCCL_IB_GID_INDEX", nccl.get("settings").get(1).get("name").asText());
        assertTrue(nccl.get("settings").get(2).get("value").isNull());
        // mlx5_0:1 has a RoCE v2 IPv4 GID; mlx5_0:2, an InfiniBand port that is not ACTIVE, is left out
        assertEquals(1, nccl.get("leftOut").size(), nccl.toString());
        assertTrue(nccl.get("leftOut").get(0).asText().startsWith("mlx5_0:2 left out of NCCL_IB_HCA: the port is "),
                nccl.toString());
        assertEquals(0, nccl.get("ncclConfMismatches").size());
        assertEquals(404, get("/api/nodes/nope/nccl", null).statusCode());

        HttpResponse<Buffer> metrics = get("/metrics", null);
        String text = metrics.bodyAsString();
        assertTrue(metrics.getHeader("Content-Type").startsWith("text/plain; version=0.0.4"));
        assertTrue(text.contains("rdma_port_data_received_bytes_total{device=\"mlx5_0\",node=\"gpu-01\",port=\"1\"} 1.2E7"), text);
        assertTrue(text.contains("rdmamon_collector_samples_ingested_total 2.0"), text);
        assertTrue(text.contains("rdmamon_collector_connected_agents 1.0"), text);
        if (Files.isExecutable(Path.of("/usr/bin/promtool"))) {
            assertEquals("", PromtoolCheck.check(text));
        }
        HttpResponse<Buffer> openMetrics = get("/metrics", "application/openmetrics-text; version=1.0.0");
        assertTrue(openMetrics.getHeader("Content-Type").startsWith("application/openmetrics-text"));
        assertTrue(openMetrics.bodyAsString().endsWith("# EOF\n"));
        assertEquals(200, get("/healthz", null).statusCode());
        assertEquals(200, get("/readyz", null).statusCode());
    }

    /**
     * The self families /metrics serves are ones {@code --metrics} knows by name (MetricSelection.COLLECTOR_SELF; a
     * labelled counter shows only once it has counted, so not all of them are served here).
     */
    @Test
    void theUpgradeAnswerListsTheOptionalFramesTheCollectorAccepts() throws Exception {
        RawAgent agent = rawAgent(AGENT_TOKEN);
        assertEquals(OptionalFrames.header(AgentIngest.ACCEPTED_OPTIONAL_FRAMES),
                agent.ws.headers().get(WireFormat.ACCEPTS_HEADER));
    }

    /**
     * A --fabric agent's sweep, in two frames on its stream: served by /api/fabric and /metrics, a link's counters by
     * /api/fabric/link; the fabric goes stale when the sweeper's stream closes.
     */
    @Test
    void aFabricSweepOnAnAgentStreamIsServedAndGoesStaleWithItsSweeper() throws Exception {
        RawAgent raw = rawAgent(AGENT_TOKEN);
        new GoldenStream(raw, "sweeper-01", 60_000).send(1_000_000L, 1, 1);
        for (Frame.Fabric part : FabricWire.parts(FabricSweeps.leafAndTwoHosts("sweeper-01"), 2)) {
            raw.send(part);
        }
        String subnet = "0xfe80000000000000/0x0000000000100001";
        JsonNode fabric = poll("the fabric", () -> JSON.readTree(get("/api/fabric", null).bodyAsString()),
                json -> json.get("fabrics").size() == 1, Duration.ofSeconds(10), Duration.ofMillis(50)).get("fabrics").get(0);
        assertEquals(subnet, fabric.get("subnet").asText());
        assertEquals(3, fabric.get("nodes").size());
        assertEquals(2, fabric.get("links").size());
        assertFalse(fabric.get("stale").asBoolean());
        assertEquals("18446744073709551615", fabric.get("nodes").get(1).get("ports").get(0).get("counters")
                .get("PortXmitData").asText());
        assertTrue(get("/metrics", null).bodyAsString().contains("rdma_fabric_port_symbol_error_total{node=\"leaf1\","
                + "node_guid=\"0x0000000000200000\",port=\"2\",remote=\"h2 mlx5_0\",remote_port=\"1\",subnet=\""
                + subnet + "\"} 50.0"));
        JsonNode link = JSON.readTree(get("/api/fabric/link?subnet=" + subnet + "&guid=" + FabricSweeps.H2 + "&port=1",
                null).bodyAsString());
        assertEquals("[50]", link.get("ends").get(FabricSweeps.LEAF + "/2").get("SymbolErrorCounter").toString());
        assertEquals(400, get("/api/fabric?subnet=nope", null).statusCode());
        assertEquals(404, get("/api/fabric?subnet=0xfe80000000000000/lid9", null).statusCode());
        assertEquals(400, get("/api/fabric/link?subnet=" + subnet + "&guid=" + FabricSweeps.H2 + "&port=255", null)
                .statusCode());
        assertEquals(400, get("/api/fabric/link?subnet=" + subnet + "&guid=h2&port=1", null).statusCode());
        assertEquals(404, get("/api/fabric/link?subnet=" + subnet + "&guid=" + FabricSweeps.LEAF + "&port=3", null)
                .statusCode());

        raw.ws.close();
        poll("the fabric stale", () -> JSON.readTree(get("/api/fabric", null).bodyAsString()),
                json -> json.get("fabrics").get(0).get("stale").asBoolean(), Duration.ofSeconds(10),
                Duration.ofMillis(50));
    }

    @Test
    void theSelfFamiliesAreOnesTheMetricsSelectionKnows() throws Exception {
        Set<String> served = get("/metrics", null).bodyAsString().lines()
                .filter(l -> l.startsWith("# TYPE rdmamon_collector_")).map(l -> l.split(" ")[2])
                .collect(Collectors.toSet());
        Set<String> unknown = new TreeSet<>(served);
        unknown.removeAll(MetricSelection.COLLECTOR_SELF);
        assertEquals(Set.of(), unknown, "self families MetricSelection.COLLECTOR_SELF does not know");
        assertTrue(served.size() >= 20, served::toString);
    }

    /** {@code metrics}: the families left out are not served; the store and the API keep everything. */
    @Test
    void aMetricsSelectionLeavesFamiliesOutOfMetricsOnly() throws Exception {
        await(collector.close()); // the one of @BeforeEach serves every family
        collector = await(Collector.start(vertx, CollectorConfig.defaults().withListen("127.0.0.1:0")
                .withTokens(List.of(new TokenEntry(Role.AGENT, AGENT_TOKEN, null),
                        new TokenEntry(Role.VIEWER, VIEWER_TOKEN, null)))
                .withMetrics("minimal,-rdmamon_collector_nodes_expired_total,+rdma_gid_info", "metrics")));
        GoldenStream agent = new GoldenStream(rawAgent(AGENT_TOKEN), "gpu-01", 60_000);
        agent.send(1_000_000L, 1, 1);
        String text = get("/metrics", null).bodyAsString();
        assertTrue(text.contains("rdma_port_data_received_bytes_total{device=\"mlx5_0\",node=\"gpu-01\",port=\"1\"}"), text);
        assertTrue(text.contains("rdma_gid_info{"), text);
        assertTrue(text.contains("rdmamon_collector_samples_ingested_total 1.0"), text);
        for (String absent : List.of("rdma_hw_rp_cnp_handled_total", "rdma_device_info", "rdma_prio_packets_total",
                "rdmamon_collector_nodes_expired_total")) {
            assertFalse(text.contains(absent), absent + " served:\n" + text);
        }
        JsonNode detail = JSON.readTree(get("/api/nodes/gpu-01", null).bodyAsString());
        assertEquals("18446744073709551614", detail.get("devices").get(1).get("ports").get(0).get("hwCounters")
                .get("rp_cnp_handled").get("value").asText());
    }

    @Test
    void malformedFrameClosesOnlyThatConnection() throws Exception {
        GoldenStream good = new GoldenStream(rawAgent(AGENT_TOKEN), "good", 60_000);
        good.send(1_000L, 1, 1);
        RawAgent bad = rawAgent(AGENT_TOKEN);
        await(bad.ws.writeBinaryMessage(Buffer.buffer("{\"v\":1,\"type\":\"hel")));
        waitFor(() -> bad.closeCode != null, "bad connection closed");
        assertEquals((short) 1002, bad.closeCode);
        assertTrue(bad.closeReason.startsWith("truncated frame"), bad.closeReason);

        RawAgent wrongVersion = rawAgent(AGENT_TOKEN);
        await(wrongVersion.ws.writeBinaryMessage(Buffer.buffer("{\"v\":9,\"type\":\"heartbeat\",\"ts\":1}")));
        waitFor(() -> wrongVersion.closeCode != null, "wrong-version connection closed");
        assertEquals("protocol version 9 is not supported; this collector speaks 1 to 3", wrongVersion.closeReason);

        good.send(2_000L, 2, 2); // still streaming, acked
        assertEquals(2_000L, collector.store().node("good").orElseThrow().lastSample().timestampMillis());
        assertTrue(get("/metrics", null).bodyAsString().contains("rdmamon_collector_frames_rejected_total 2.0"));
    }

    /**
     * Agents and collectors are upgraded at different times: a protocol 1 agent (frames recorded from the protocol 1
     * encoder, {@code /wire/v1/golden-gpu-01.jsonl}) streams to this collector, its samples are acknowledged and
     * exported, its per-priority counters derived from its raw ethtool statistics.
     */
    @Test
    void aProtocolOneAgentStreamsToThisCollector() throws Exception {
        RawAgent agent = rawAgent(AGENT_TOKEN);
        List<String> frames;
        try (java.io.InputStream in = getClass().getResourceAsStream("/wire/v1/golden-gpu-01.jsonl")) {
            frames = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8).lines().toList();
        }
        for (String frame : frames) {
            await(agent.ws.writeBinaryMessage(Buffer.buffer(frame)));
        }
        for (long seq = 1; seq <= 3; seq++) {
            assertEquals(new Frame.Ack(seq), agent.received.poll(5, TimeUnit.SECONDS));
        }
        String metrics = get("/metrics", null).bodyAsString();
        assertTrue(metrics.contains("rdma_prio_bytes_total{device=\"mlx5_0\",direction=\"rx\",node=\"gpu-01\",port=\"1\","
                + "priority=\"3\"} 9000000.0"), metrics);
        assertTrue(metrics.contains("rdma_pfc_pause_duration_seconds_total{device=\"mlx5_0\",direction=\"rx\","
                + "node=\"gpu-01\",port=\"1\",priority=\"3\"} 2.5"), metrics);
        assertNull(agent.closeCode, "the stream stays open");
    }

    /**
     * Frames are decoded off the verticle's loop and applied back on it: a burst far beyond the frames a
     * connection may have in flight (the socket pauses and resumes) is applied completely and in order, and a
     * bad frame at its end is refused only after every sample before it.
     */
    @Test
    void aBurstOfFramesIsAppliedInOrderAndABadFrameAfterItStillClosesTheStream() throws Exception {
        RawAgent agent = rawAgent(AGENT_TOKEN);
        SampleEncoder encoder = new SampleEncoder("burst", "test", 60_000);
        int samples = 20 * io.rdmamon.collector.ingest.AgentIngest.MAX_FRAMES_IN_FLIGHT;
        List<Future<Void>> writes = new java.util.ArrayList<>();
        for (int seq = 1; seq <= samples; seq++) {
            for (Frame frame : encoder.encode(FixtureHosts.golden("burst", 1_000L * seq, seq), seq)) {
                writes.add(agent.ws.writeBinaryMessage(Buffer.buffer(codec.encode(frame))));
            }
        }
        writes.add(agent.ws.writeBinaryMessage(Buffer.buffer("{\"v\":1,\"type\":\"values\"}")));
        await(Future.all(writes));
        for (int seq = 1; seq <= samples; seq++) {
            assertEquals(new Frame.Ack(seq), agent.received.poll(5, TimeUnit.SECONDS));
        }
        waitFor(() -> agent.closeCode != null, "stream closed after the bad frame");
        assertEquals((short) 1002, agent.closeCode);
        assertEquals("frame.values: missing", agent.closeReason);
        assertEquals(1_000L * samples, collector.store().node("burst").orElseThrow().lastSample().timestampMillis());
        assertTrue(get("/metrics", null).bodyAsString().contains("rdmamon_collector_samples_ingested_total " + samples + ".0"));
    }

    @Test
    void unknownTokenIsRefusedAndTheNodeNeverAppears() throws Exception {
        for (String token : new String[] {"wrong-token", null}) {
            ExecutionException e = org.junit.jupiter.api.Assertions.assertThrows(ExecutionException.class,
                    () -> rawAgent(token));
            UpgradeRejectedException rejected = assertInstanceOf(UpgradeRejectedException.class, e.getCause());
            assertEquals(401, rejected.getStatus());
        }
        assertEquals("{\"nodes\":[]}", get("/api/nodes", null).bodyAsString());
        assertTrue(get("/metrics", null).bodyAsString().contains("rdmamon_collector_auth_failures_total 2.0"));
    }

    @Test
    void silentNodeGoesStaleThenExpires() throws Exception {
        // 500 ms interval: up for 1 s after the sample, stale from then until expiry at 5 s. The collector's clock is
        // the wall clock, so each phase is wide enough for a check on a loaded machine, where the JUnit thread can
        // wait a second for a core (1.5 s to expiry was once too short for the stale checks).
        new GoldenStream(rawAgent(AGENT_TOKEN), "quiet", 500).send(1_000L, 1, 1);
        assertTrue(collector.store().node("quiet").orElseThrow().up());
        waitFor(() -> !collector.store().node("quiet").orElseThrow().up(), "node stale");
        String stale = get("/metrics", null).bodyAsString();
        assertTrue(stale.contains("rdma_agent_up{node=\"quiet\"} 0.0"), stale);
        assertTrue(stale.contains("rdma_port_state_id{device=\"mlx5_0\",node=\"quiet\""), stale);
        waitFor(() -> collector.store().node("quiet").isEmpty(), "node expired");
        String metrics = get("/metrics", null).bodyAsString();
        assertFalse(metrics.contains("node=\"quiet\""), metrics);
        assertEquals(404, get("/api/nodes/quiet", null).statusCode());
    }

    @Test
    void refusesNonLoopbackWithoutTokensUnlessInsecure() throws Exception {
        CollectorConfig open = CollectorConfig.defaults().withListen("0.0.0.0:0");
        ExecutionException e = org.junit.jupiter.api.Assertions.assertThrows(ExecutionException.class,
                () -> await(Collector.start(vertx, open)));
        assertInstanceOf(ConfigException.class, e.getCause());
        assertTrue(e.getCause().getMessage().contains("refusing to listen on 0.0.0.0 without tokens"));
        Collector.Running insecure = await(Collector.start(vertx, open.withInsecure(true)));
        assertNotNull(insecure);
        await(insecure.close());
    }

    private HttpResponse<Buffer> get(String path, String accept) throws Exception {
        var request = http.request(HttpMethod.GET, collector.port(), "127.0.0.1", path)
                .putHeader("Authorization", "Bearer " + VIEWER_TOKEN);
        if (accept != null) {
            request.putHeader("Accept", accept);
        }
        return await(request.send());
    }


}
