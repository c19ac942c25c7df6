package io.rdmamon.collector.ingest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rdmamon.collector.Collector;
import io.rdmamon.collector.CollectorConfig;
import io.rdmamon.collector.RawAgent;
import io.rdmamon.collector.auth.Role;
import io.rdmamon.collector.auth.TokenEntry;
import io.rdmamon.collector.store.NodeView;
import io.rdmamon.protocol.model.HostSample;
import io.rdmamon.protocol.model.IbPort;
import io.rdmamon.protocol.model.LldpNeighbor;
import io.rdmamon.protocol.model.QosConfig;
import io.rdmamon.protocol.model.QueuePair;
import io.rdmamon.protocol.model.RdmaResources;
import io.rdmamon.protocol.testing.FixtureHosts;
import io.rdmamon.protocol.wire.Frame;
import io.rdmamon.protocol.wire.FrameCodec;
import io.rdmamon.protocol.wire.HostLayout.DeviceLayout;
import io.rdmamon.protocol.wire.HostLayout.PortLayout;
import io.rdmamon.protocol.wire.HostLayout;
import io.rdmamon.protocol.wire.SampleEncoder;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.WebSocket;
import io.vertx.core.http.WebSocketClient;
import io.vertx.ext.web.client.WebClient;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

import static io.rdmamon.protocol.testing.Waits.await;
import static io.rdmamon.protocol.testing.Waits.poll;
import static io.rdmamon.protocol.testing.Waits.waitFor;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Agents that do not play by the rules, against a real collector on loopback through raw WebSocket clients:
 * every bad agent costs only its own connection, is told why (close code and reason), and the collector keeps
 * serving everybody else.
 */
@ExtendWith(VertxExtension.class)
class HostileAgentTest {
    private static final String AGENT_TOKEN = "agent-token-hostile";
    /** The collector refuses a role without a token once any token is configured: reads need their own. */
    private static final String VIEWER_TOKEN = "viewer-token-hostile";
    private static final ObjectMapper JSON = new ObjectMapper();
    private final FrameCodec codec = new FrameCodec();
    private Vertx vertx;
    private Collector.Running collector;
    private WebClient http;
    private WebSocketClient wsClient;

    private void start(CollectorConfig config) throws Exception {
        collector = await(Collector.start(vertx, config.withListen("127.0.0.1:0")
                .withTokens(List.of(new TokenEntry(Role.AGENT, AGENT_TOKEN, null),
                        new TokenEntry(Role.VIEWER, VIEWER_TOKEN, null)))));
        http = WebClient.create(vertx);
        wsClient = vertx.createWebSocketClient();
    }

    private void start() throws Exception {
        start(CollectorConfig.defaults());
    }

    @BeforeEach
    void setUp(Vertx vertx) {
        this.vertx = vertx;
    }

    /** A stream to the collector with the agent token. */
    private RawAgent rawAgent() throws Exception {
        return new RawAgent(wsClient, collector.port(), AGENT_TOKEN);
    }

    private static SampleEncoder agent(String node, String instance) {
        return new SampleEncoder(node, "test", 60_000, List.of(), instance);
    }

    private String get(String path) throws Exception {
        var response = await(http.request(HttpMethod.GET, collector.port(), "127.0.0.1", path)
                .putHeader("Authorization", "Bearer " + VIEWER_TOKEN).send());
        assertEquals(200, response.statusCode(), path);
        return response.bodyAsString();
    }

    private JsonNode nodeJson(String node) throws Exception {
        for (JsonNode n : JSON.readTree(get("/api/nodes")).get("nodes")) {
            if (n.get("node").asText().equals(node)) {
                return n;
            }
        }
        return null;
    }

    private boolean diagnosed(String node, String rule) {
        try {
            for (JsonNode d : JSON.readTree(get("/api/diagnoses?rule=" + rule)).get("diagnoses")) {
                if (d.get("node").asText().equals(node)) {
                    return true;
                }
            }
            return false;
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    private void assertStillServing() throws Exception {
        assertEquals("{\"status\":\"ok\"}", get("/healthz"));
    }

    /** A 512 KiB frame type spun the event loop for 52 s in a quadratic close-reason cut. */
    @Test
    void aFrameTypeOfHalfAMegabyteIsRefusedAtOnceAndTheCollectorKeepsAnswering() throws Exception {
        start();
        RawAgent agent = rawAgent();
        agent.send("{\"v\":1,\"type\":\"" + "t".repeat(512 * 1024) + "\"}");
        assertEquals((short) 1002, agent.closed()); // within the bounded wait: it took 52 s
        assertEquals("unknown frame type '" + "t".repeat(64) + "… (524288 chars)'", agent.closeReason);
        assertStillServing();
    }

    @Test
    void closeReasonsAreCutToAFrameWithoutSplittingACharacter() {
        assertEquals("x".repeat(123), AgentConnection.closeReason("x".repeat(10_000_000)));
        String cut = AgentConnection.closeReason("é".repeat(100)); // 2 bytes each
        assertEquals("é".repeat(61), cut);
        assertEquals("short", AgentConnection.closeReason("short"));
    }

    /** 98 bytes allocated a 256 MiB BitSet before the range check. */
    @Test
    void anAbsentSlotFarBeyondTheValuesIsRefused() throws Exception {
        start();
        RawAgent agent = rawAgent();
        agent.send("{\"v\":1,\"type\":\"values\",\"layoutId\":1,\"seq\":1,\"ts\":1,\"values\":[1],"
                + "\"absent\":[2147483647],\"sources\":[]}");
        assertEquals((short) 1002, agent.closed());
        assertEquals("frame.absent: slot 2147483647 outside 0..0", agent.closeReason);
        assertStillServing();
    }

    private static PortLayout bare(int port) {
        return PortLayout.of(activeEthernetPort(port).rate("100 Gb/sec").build());
    }

    /** An active Ethernet port with nothing else set, for the cases to add their hostile part to. */
    private static IbPort.Builder activeEthernetPort(int port) {
        return IbPort.builder().port(port).stateId(4).state("ACTIVE").physStateId(5).physState("LinkUp")
                .linkLayer("Ethernet");
    }

    /** A port whose only counters are named {@code names} (values 0). */
    private static PortLayout withCounters(List<String> names) {
        Map<String, Long> counters = new java.util.LinkedHashMap<>();
        names.forEach(name -> counters.put(name, 0L));
        return PortLayout.of(activeEthernetPort(1).counters(counters).build());
    }

    private static Frame.Hello hello(String node, HostLayout layout) {
        return new Frame.Hello(node, "test", 1000, 1, layout);
    }

    private static HostLayout oneDevice(List<PortLayout> ports) {
        return new HostLayout(List.of(new DeviceLayout("mlx5_0", 1, "CA", null, null, null, null, null, ports)));
    }

    /** One agent with 10,000 ports filled the heap; one with 100,000 counters added 100,009 series. */
    @Test
    void aHelloBeyondTheNodeLimitsIsRefusedNamingTheLimit() throws Exception {
        start();
        RawAgent ports = rawAgent();
        ports.send(hello("many-ports", oneDevice(IntStream.rangeClosed(1, 10_000).mapToObj(HostileAgentTest::bare).toList())));
        assertEquals((short) 1008, ports.closed());
        assertEquals("hello.layout.devices[0].ports lists 10000 entries; at most 32 (ingest.maxPortsPerDevice)",
                ports.closeReason);

        RawAgent counters = rawAgent();
        PortLayout wide = withCounters(IntStream.range(0, 100_000).mapToObj(i -> "c" + i).toList());
        counters.send(hello("many-counters", oneDevice(List.of(wide))));
        assertEquals((short) 1008, counters.closed());
        assertEquals("hello.layout.devices[0].ports[0].counters lists 100000 entries; at most 8192 "
                + "(ingest.maxCountersPerGroup)", counters.closeReason);

        assertNull(nodeJson("many-ports"));
        assertNull(nodeJson("many-counters"));
        String metrics = get("/metrics");
        assertTrue(metrics.contains("rdmamon_collector_agent_streams_closed_total{reason=\"limit\"} 2.0"), metrics);
        assertStillServing();
    }

    @Test
    void aLayoutChangeBeyondTheLimitsClosesTheStreamAndKeepsTheNodesData() throws Exception {
        start(CollectorConfig.defaults().withIngest(IngestLimits.defaults().withMaxDevices(2)));
        RawAgent agent = rawAgent();
        long now = System.currentTimeMillis();
        agent.sample(agent("grows", null), FixtureHosts.golden("grows", now, 1), 1); // 2 devices: at the limit
        List<DeviceLayout> three = IntStream.range(0, 3).mapToObj(i -> new DeviceLayout("d" + i, 1, null, null, null,
                null, null, null, List.of(bare(1)))).toList();
        agent.send(new Frame.LayoutChange(2, new HostLayout(three)));
        assertEquals((short) 1008, agent.closed());
        assertEquals("layout.layout.devices lists 3 entries; at most 2 (ingest.maxDevices)", agent.closeReason);
        NodeView node = collector.store().node("grows").orElseThrow();
        assertEquals(now, node.lastSample().timestampMillis());
        assertEquals(2, node.lastSample().devices().size());
        assertEquals(0, node.connections());
    }

    /** A sample stamped a year ahead froze the node: every later real sample was acked and dropped. */
    @Test
    void aSampleFromTheFutureIsRefusedCountedAndTheNextSamplesStillApply() throws Exception {
        start();
        RawAgent agent = rawAgent();
        SampleEncoder encoder = agent("clock", "run-1");
        long now = System.currentTimeMillis();
        agent.sample(encoder, FixtureHosts.golden("clock", now, 1), 1);
        agent.sample(encoder, FixtureHosts.golden("clock", now + Duration.ofDays(365).toMillis(), 2), 2);
        agent.sample(encoder, FixtureHosts.golden("clock", now + 1000, 3), 3);
        assertEquals(now + 1000, collector.store().node("clock").orElseThrow().lastSample().timestampMillis());
        // the agent's clock steps back: its samples are still new, by their seq
        agent.sample(encoder, FixtureHosts.golden("clock", now - 60_000, 4), 4);
        assertEquals(now - 60_000, collector.store().node("clock").orElseThrow().lastSample().timestampMillis());

        assertEquals(1, nodeJson("clock").get("refusedSamples").get("ahead_of_clock").asLong());
        String metrics = get("/metrics");
        assertTrue(metrics.contains("rdmamon_collector_samples_refused_total{reason=\"ahead_of_clock\"} 1.0"), metrics);
        assertTrue(metrics.contains("rdmamon_collector_samples_ingested_total 3.0"), metrics);
    }

    /**
     * After a reconnect the agent replays what was not acknowledged; what was applied already is a duplicate by
     * its run and seq (timestamps are not trusted). A restarted agent (a new run) numbers from 1 again, and that
     * is new data.
     */
    @Test
    void replayedSamplesAreDuplicatesByRunAndSeqAndARestartedAgentStartsAfresh() throws Exception {
        start();
        long now = System.currentTimeMillis();
        RawAgent first = rawAgent();
        SampleEncoder run = agent("replay", "run-1");
        first.sample(run, FixtureHosts.golden("replay", now, 1), 1);
        first.sample(run, FixtureHosts.golden("replay", now + 1000, 2), 2);
        await(first.ws.close());
        waitFor(() -> collector.store().node("replay").orElseThrow().connections() == 0, "first stream gone");

        RawAgent again = rawAgent();
        SampleEncoder sameRun = agent("replay", "run-1");
        again.sample(sameRun, FixtureHosts.golden("replay", now + 1000, 2), 2); // its ack was lost: replayed
        again.sample(sameRun, FixtureHosts.golden("replay", now + 2000, 3), 3);
        assertEquals(now + 2000, collector.store().node("replay").orElseThrow().lastSample().timestampMillis());
        await(again.ws.close());
        waitFor(() -> collector.store().node("replay").orElseThrow().connections() == 0, "second stream gone");

        RawAgent restarted = rawAgent();
        SampleEncoder newRun = agent("replay", "run-2");
        restarted.sample(newRun, FixtureHosts.golden("replay", now + 3000, 4), 1);
        assertEquals(now + 3000, collector.store().node("replay").orElseThrow().lastSample().timestampMillis());
        String metrics = get("/metrics");
        assertTrue(metrics.contains("rdmamon_collector_samples_duplicate_total 1.0"), metrics);
        assertTrue(metrics.contains("rdmamon_collector_samples_ingested_total 4.0"), metrics);
    }

    /**
     * Two agents with one name were merged (devices flipping every sample); an impersonator's close then
     * unregistered the real agent. The live connection keeps the name; the newcomer is refused and told why.
     */
    @Test
    void aSecondAgentWithALiveNodesNameIsRefusedAndTheRealAgentStaysRegistered() throws Exception {
        start();
        long now = System.currentTimeMillis();
        RawAgent real = rawAgent();
        SampleEncoder realRun = agent("gpu-07", "real");
        real.sample(realRun, FixtureHosts.golden("gpu-07", now, 1), 1);

        RawAgent impostor = rawAgent();
        impostor.send(agent("gpu-07", "impostor").encode(FixtureHosts.golden("gpu-07", now, 1), 1).get(0));
        assertEquals((short) 1008, impostor.closed());
        assertEquals("node name conflict: gpu-07 is streaming on another live connection", impostor.closeReason);

        real.sample(realRun, FixtureHosts.golden("gpu-07", now + 1000, 2), 2);
        JsonNode node = nodeJson("gpu-07");
        assertTrue(node.get("connected").asBoolean(), node.toString());
        assertEquals(1, node.get("nameConflicts").get("count").asInt());
        assertTrue(node.get("nameConflicts").get("last").asText().contains("refused: a live connection from"));
        assertEquals(1, collector.store().node("gpu-07").orElseThrow().connections());
        assertEquals(now + 1000, collector.store().node("gpu-07").orElseThrow().lastSample().timestampMillis());
        assertTrue(get("/metrics").contains("rdmamon_collector_agent_streams_closed_total{reason=\"name_conflict\"} 1.0"));
        waitFor(() -> diagnosed("gpu-07", "node_name_conflict"), "node_name_conflict raised at the next sweep");
    }

    @Test
    void aSilentStreamIsClosedAndFreesItsNodesName() throws Exception {
        // 3 s: ten heartbeats' worth, so that a test thread held up by a loaded machine does not let the talker idle
        start(CollectorConfig.defaults().withIngest(IngestLimits.defaults().withIdleTimeout(Duration.ofSeconds(3))));
        long now = System.currentTimeMillis();
        RawAgent talker = rawAgent();
        SampleEncoder talkerRun = agent("talker", "t");
        talker.sample(talkerRun, FixtureHosts.golden("talker", now, 1), 1);
        RawAgent silent = rawAgent();
        silent.sample(agent("silent", "s"), FixtureHosts.golden("silent", now, 1), 1);
        // a heartbeat every 300 ms (the cadence is the scenario: under the 3 s idle timeout) until the silent stream,
        // which sampled after the talker, is closed: by then only the heartbeats have kept the talker's stream open
        poll("the silent stream closed", () -> {
            talker.send(new Frame.Heartbeat(System.currentTimeMillis()));
            return silent.closeCode;
        }, code -> code != null, Duration.ofSeconds(15), Duration.ofMillis(300));
        assertEquals((short) 1001, silent.closed());
        assertEquals("no frame for 3000 ms (ingest.idleTimeout)", silent.closeReason);
        talker.sample(talkerRun, FixtureHosts.golden("talker", now + 1000, 2), 2); // acknowledged: still open
        assertNull(talker.closeCode);
        assertFalse(nodeJson("silent").get("connected").asBoolean());

        RawAgent back = rawAgent(); // the name is free again
        back.sample(agent("silent", "s"), FixtureHosts.golden("silent", now + 1000, 2), 2);
        assertTrue(get("/metrics").contains("rdmamon_collector_agent_streams_closed_total{reason=\"idle\"} 1.0"));
    }

    /** Vert.x dropped a message beyond its limit silently. */
    @Test
    void anOversizedMessageClosesTheStreamWithAReason() throws Exception {
        start(CollectorConfig.defaults().withLimits(900, 10_000, 64 * 1024));
        RawAgent agent = rawAgent();
        // announced in the upgrade answer: an agent keeps its frames within it (SampleFrames)
        assertEquals("65536", agent.ws.headers().get(io.rdmamon.protocol.wire.WireFormat.MAX_FRAME_HEADER));
        byte[] big = new byte[200 * 1024];
        java.util.Arrays.fill(big, (byte) ' ');
        agent.sendRefused(big);
        assertEquals((short) 1009, agent.closed());
        assertEquals("message exceeds the limit of 65536 bytes (maxFrameBytes)", agent.closeReason);
        String metrics = get("/metrics");
        assertTrue(metrics.contains("rdmamon_collector_agent_streams_closed_total{reason=\"oversized\"} 1.0"), metrics);
        assertTrue(metrics.contains("rdmamon_collector_frames_rejected_total 1.0"), metrics);
    }

    /** A newline in agentVersion forged log lines; a 3 MiB one made a 3 MiB log line. */
    @Test
    void stringsFromTheWireMustBePrintableAndBounded() throws Exception {
        start();
        HostLayout layout = HostLayout.of(FixtureHosts.golden("x", 1, 1));
        RawAgent forged = rawAgent();
        forged.send(new Frame.Hello("forger", "1.0\nWARNING collector: token accepted", 1000, 1, layout));
        assertEquals((short) 1002, forged.closed());
        assertEquals("hello.agentVersion '1.0\\u000aWARNING collector: token accepted' holds the unprintable "
                + "character U+000A at 3", forged.closeReason);

        RawAgent huge = rawAgent();
        huge.send(new Frame.Hello("huge", "v".repeat(3 * 1024 * 1024), 1000, 1, layout));
        assertEquals((short) 1008, huge.closed());
        assertEquals("hello.agentVersion has 3145728 characters; at most 256 (ingest.maxNameLength)", huge.closeReason);

        RawAgent escape = rawAgent();
        PortLayout named = withCounters(List.of("port_rcv_data\u001b[2J"));
        escape.send(hello("escape", oneDevice(List.of(named))));
        assertEquals((short) 1002, escape.closed());
        assertTrue(escape.closeReason.startsWith("hello.layout.devices[0].ports[0].counters[0] 'port_rcv_data\\u001b[2J'"),
                escape.closeReason);

        // protocol 3's QoS texts: the apptrust names become labels, the nccl.conf values are shown by the API
        RawAgent trust = rawAgent();
        QosConfig forgedTrust = new QosConfig(QosConfig.SOURCE_NETLINK, null, null, null, List.of(),
                List.of("dscp", "pcp\nrdma_agent_up 0"), null, null, null, null, null);
        trust.send(hello("trust", oneDevice(List.of(PortLayout.of(activeEthernetPort(1).netdev("ens3f0np0")
                .qos(forgedTrust).build())))));
        assertEquals((short) 1002, trust.closed());
        assertTrue(trust.closeReason.startsWith("hello.layout.devices[0].ports[0].qos.trustOrder[1] 'pcp\\u000ardma"),
                trust.closeReason);
        // RDMA netlink resources: the resource types become labels, the QP texts are shown by the API
        RawAgent resources = rawAgent();
        resources.send(hello("resources", new HostLayout(List.of(new DeviceLayout("rxe0", 1, "CA", null, null, null,
                null, null, List.of(bare(1)), null, new RdmaResources(Map.of("qp", 1L), List.of(new QueuePair(1, null,
                1, "GSI", "RTS", null, "ib_core\nrdma_agent_up 0")), 0))))));
        assertEquals((short) 1002, resources.closed());
        assertTrue(resources.closeReason.startsWith("hello.layout.devices[0].resources.qps[0].kernName 'ib_core\\u000a"),
                resources.closeReason);
        // the LLDP neighbour: chassis id, system name and port id become labels
        RawAgent lldp = rawAgent();
        PortLayout cabled = PortLayout.of(activeEthernetPort(1).netdev("ens3f0np0").neighbor(
                new LldpNeighbor("1c:34:da:00:00:01", "mac", "leaf-01\"} 1\nrdma_agent_up", "Ethernet0", "ifname", null))
                .build());
        lldp.send(hello("lldp", oneDevice(List.of(cabled))));
        assertEquals((short) 1002, lldp.closed());
        assertTrue(lldp.closeReason.startsWith("hello.layout.devices[0].ports[0].neighbor.systemName 'leaf-01\"} 1\\u000a"),
                lldp.closeReason);
        RawAgent nccl = rawAgent();
        nccl.send(hello("nccl", new HostLayout(layout.devices(), Map.of("NCCL_IB_TC", "106\u001b[2J"))));
        assertEquals((short) 1002, nccl.closed());
        assertTrue(nccl.closeReason.startsWith("hello.layout.ncclConf.NCCL_IB_TC '106\\u001b[2J'"), nccl.closeReason);

        // the agent's own rule (Names.NODE_NAME): a ':' was accepted here while `rdmamon agent --node` refused it
        RawAgent colon = rawAgent();
        colon.send(new Frame.Hello("gpu-01:9100", "1.0", 1000, 1, layout));
        assertEquals((short) 1002, colon.closed());
        assertTrue(colon.closeReason.startsWith("invalid node name 'gpu-01:9100'"), colon.closeReason);

        for (String node : List.of("forger", "huge", "escape", "trust", "resources", "nccl", "gpu-01:9100")) {
            assertNull(nodeJson(node), node);
        }
        assertStillServing();
    }
}
