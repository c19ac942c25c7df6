package io.rdmamon.collector.pingmesh;

import io.rdmamon.collector.model.PortKey;
import io.rdmamon.collector.probe.Endpoint;
import io.rdmamon.collector.probe.ProbeConfig;
import io.rdmamon.collector.probe.ProbeOrchestrator;
import io.rdmamon.collector.probe.ProbeRequest;
import io.rdmamon.collector.probe.Requester;
import io.rdmamon.protocol.probe.PerftestTest;
import io.rdmamon.protocol.probe.ProbeRole;
import io.rdmamon.protocol.wire.Frame;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;

import static io.rdmamon.collector.pingmesh.FakeMeshAgents.Behaviour.DEAD;
import static io.rdmamon.collector.pingmesh.FakeMeshAgents.Behaviour.HANGING;
import static io.rdmamon.collector.pingmesh.FakeMeshAgents.Behaviour.HEALTHY;
import static io.rdmamon.collector.pingmesh.FakeMeshAgents.Behaviour.LOSSY;
import static io.rdmamon.collector.pingmesh.FakeMeshAgents.Behaviour.REFUSING;
import static io.rdmamon.collector.pingmesh.FakeMeshAgents.Behaviour.UNTIMED;
import static io.rdmamon.protocol.testing.Waits.waitFor;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The pingmesh service driving agents through the orchestrator's AgentLinks ({@link MeshFixture}). */
@ExtendWith(VertxExtension.class)
class PingmeshTest {
    private static final Duration LIMIT = Duration.ofSeconds(20);
    private MeshFixture mesh;
    private FakeMeshAgents agents;
    private ProbeOrchestrator orchestrator;
    private Pingmesh pingmesh;

    @BeforeEach
    void setUp(Vertx vertx) {
        mesh = new MeshFixture(vertx);
        agents = mesh.agents;
        orchestrator = mesh.orchestrator;
        pingmesh = mesh.pingmesh;
    }

    private void nodes(FakeMeshAgents.Behaviour... behaviours) {
        mesh.nodes(behaviours);
    }

    private <T> T onContext(Callable<T> action) throws Exception {
        return mesh.onContext(action);
    }

    private void round(long number) throws Exception {
        mesh.round(number);
    }

    private double outcomes(String outcome) {
        return mesh.outcomes(outcome);
    }

    private double ended() {
        return mesh.ended();
    }

    private static PortKey roce(String node) {
        return new PortKey(node, "mlx5_0", 1);
    }

    private static PortKey erdma(String node) {
        return new PortKey(node, "erdma_0", 1);
    }

    private Map<List<PortKey>, PairStats> stats() {
        return pingmesh.results().pairStats(System.currentTimeMillis()).stream()
                .collect(Collectors.toMap(s -> List.of(s.src(), s.dst()), s -> s));
    }

    @Test
    void aRoundProbesEveryPortServerFirstAsLatencyProbesOnItsOwnFabric() throws Exception {
        nodes(HEALTHY, HEALTHY, HEALTHY, HEALTHY);
        round(0);
        // own rack: 2 racks × 2 ports × 2 fabrics; other rack: as many
        waitFor(() -> outcomes("ok") == 16, "16 probes done", LIMIT);
        assertEquals(0.0, outcomes("failed") + outcomes("skipped"));
        Map<List<PortKey>, PairStats> stats = stats();
        assertEquals(16, stats.size(), stats.keySet().toString());
        PairStats own = stats.get(List.of(roce("n1"), roce("n2")));
        assertEquals(new PairStats(roce("n1"), roce("n2"), "rack-a", "rack-a", 19, 0, 3e-6, 3e-6, 1, 0), own);
        assertTrue(stats.keySet().stream().allMatch(pair -> pair.get(0).device().equals(pair.get(1).device())),
                "never a RoCE port with an eRDMA one");
        assertEquals(8, stats.values().stream().filter(s -> !s.srcGroup().equals(s.dstGroup())).count());

        Map<String, List<FakeMeshAgents.Sent>> byProbe = agents.starts().stream()
                .collect(Collectors.groupingBy(s -> ((Frame.ProbeStart) s.frame()).probeId()));
        assertEquals(16, byProbe.size());
        byProbe.forEach((id, starts) -> {
            assertTrue(id.startsWith("pm-"), id);
            Frame.ProbeStart server = (Frame.ProbeStart) starts.get(0).frame();
            Frame.ProbeStart client = (Frame.ProbeStart) starts.get(1).frame();
            assertEquals(ProbeRole.SERVER, server.role(), "server first");
            assertEquals(ProbeRole.CLIENT, client.role());
            assertEquals(8_000, client.timeoutMillis());
            assertEquals(PerftestTest.SEND_LAT, client.spec().test());
            assertEquals(20, client.spec().iterations());
            assertEquals(14, client.spec().qpTimeout());
            assertEquals(64, client.spec().sizeBytes());
            assertNull(client.spec().trafficClass(), "no lossless class known");
            if (client.spec().device().equals("mlx5_0")) {
                assertEquals(3, client.spec().gidIndex(), "the RoCE v2 GID the orchestrator picks");
                assertEquals(3, server.spec().gidIndex());
                assertEquals("192.168.1.2", client.serverAddress());
            } else {
                assertNull(client.spec().gidIndex());
                assertEquals(agents.remoteHost(starts.get(0).node()).orElseThrow(), client.serverAddress());
            }
        });
        JsonObject listed = onContext(() -> orchestrator.list());
        assertEquals(0, listed.getJsonArray("probes").size(), "not listed by default");
        JsonObject all = onContext(() -> orchestrator.list(true));
        assertEquals(16, all.getJsonArray("probes").size());
        assertEquals("send_lat", all.getJsonArray("probes").getJsonObject(0).getString("test"));
        assertEquals(16, pingmesh.mesh().ports().size() * 2);
        assertEquals(Map.of("rack-a", PortGroups.Source.CONFIG, "rack-b", PortGroups.Source.CONFIG),
                pingmesh.mesh().groupSources());
    }

    @Test
    void lossIsCountedFailedProbesAreUnreachableAndRefusalsAreSkipped() throws Exception {
        nodes(HEALTHY, LOSSY, REFUSING, DEAD);
        round(0);
        waitFor(() -> ended() == 16, "16 probes ended", LIMIT);
        Map<List<PortKey>, PairStats> stats = stats();
        PairStats lossy = stats.get(List.of(roce("n1"), roce("n2")));
        assertEquals(19, lossy.sent());
        assertEquals(4, lossy.lost(), "round trips of 100 ms waited for a retransmission (67 ms at qpTimeout 14)");
        assertTrue(stats.keySet().stream().flatMap(List::stream).noneMatch(p -> p.node().equals("n3")),
                "a refusing agent's pairs have no statistics: " + stats.keySet());
        List<PairStats> towardsDead = stats.values().stream().filter(s -> s.dst().node().equals("n4")
                || s.src().node().equals("n4")).toList();
        assertTrue(!towardsDead.isEmpty());
        for (PairStats s : towardsDead) {
            assertEquals(s.sent(), s.lost(), s.toString());
            assertEquals(20, s.sent());
            assertEquals(1, s.failedProbes());
        }
        // n3 as client (server n4 listened... but n3 refuses) and as server: skipped, with the agent's reason
        List<ProbePoint> refused = pingmesh.results().history(new PingmeshResults.Pair(roce("n4"), roce("n3")));
        assertEquals(1, refused.size());
        assertTrue(refused.get(0).skipped());
        assertEquals("probes are disabled on this agent", refused.get(0).error());
        assertTrue(outcomes("failed") > 0);
        assertTrue(outcomes("skipped") > 0);
    }

    @Test
    void exchangesThePerftestCouldNotTimeAreNeitherLossNorLatency() throws Exception {
        nodes(HEALTHY, UNTIMED);
        round(0);
        waitFor(() -> ended() == 4, "4 probes ended", LIMIT);
        Map<List<PortKey>, PairStats> stats = stats();
        assertEquals(19, stats.get(List.of(roce("n1"), roce("n2"))).sent(), "n1's client timed its round trips");
        assertEquals(Set.of(List.of(roce("n1"), roce("n2")), List.of(erdma("n1"), erdma("n2"))), stats.keySet(),
                "n2's untimed probes count in no statistic, no loss above all");
        List<ProbePoint> untimed = pingmesh.results().history(new PingmeshResults.Pair(roce("n2"), roce("n1")));
        assertEquals(1, untimed.size());
        assertTrue(untimed.get(0).skipped());
        assertEquals(0, untimed.get(0).lost());
        assertEquals("n2: " + FakeMeshAgents.UNTIMED_REASON, untimed.get(0).error());
        assertEquals(2.0, outcomes("untimed"));
        assertEquals(2.0, outcomes("ok"));
        assertEquals(0.0, outcomes("failed") + outcomes("skipped"));
    }

    @Test
    void portsInAnOperatorsProbeAreLeftAlone() throws Exception {
        nodes(HEALTHY, HEALTHY, HEALTHY, HEALTHY);
        onContext(() -> orchestrator.start(new ProbeRequest(new Endpoint("n1", "mlx5_0", 1),
                new Endpoint("n2", "mlx5_0", 1), 65_536, 5, 1, null, false), new Requester("operator", null, null)));
        round(0);
        waitFor(() -> ended() == 16, "16 probes ended", LIMIT);
        List<ProbePoint> skipped = pingmesh.results().history(new PingmeshResults.Pair(roce("n1"), roce("n2")));
        assertTrue(skipped.get(0).skipped());
        assertTrue(skipped.get(0).error().contains("is in an operator's probe"), skipped.get(0).error());
        assertEquals(2 + 2 + 2, outcomes("skipped"), "every probe of n1's and n2's RoCE ports: n1↔n2, 2 towards "
                + "rack-b, 2 from it");
        assertEquals(1, onContext(() -> orchestrator.list()).getJsonArray("probes").size(), "the operator's probe runs");
    }

    /**
     * A client that outlives the probe's timeout fails it as unreachable (every round trip lost), kept apart as a
     * timeout: beside probes that got through, and with both ends' retransmission counters still, it is excused as a
     * host that stalled (a cold JVM, a busy vCPU) and raises no {@code path_loss}.
     */
    @Test
    void aTimedOutProbeIsKeptApartAndExcusedWhenTheCountersSawNoRetransmission(Vertx vertx) throws Exception {
        mesh = new MeshFixture(vertx, ProbeConfig.defaults(), 1);
        mesh.nodes(HANGING, HEALTHY);
        mesh.round(0);
        waitFor(() -> mesh.outcomes("timeout") == 2, "n1's two clients timed out", LIMIT);
        PingmeshResults.Pair pair = new PingmeshResults.Pair(roce("n1"), roce("n2"));
        ProbePoint timedOut = mesh.pingmesh.results().history(pair).get(0);
        assertTrue(timedOut.failed() && timedOut.timedOut());
        assertEquals(List.of(20, 20), List.of(timedOut.sent(), timedOut.lost()));
        assertTrue(timedOut.error().contains("the client never finished"), timedOut.error());
        assertEquals(0.0, mesh.outcomes("failed"), "a timeout is not perftest failing");

        mesh.agents.node("n1", HEALTHY);
        mesh.round(1);
        waitFor(() -> mesh.outcomes("ok") == 2 + 4, "round 1's four probes done", LIMIT);
        mesh.round(2);
        waitFor(() -> mesh.outcomes("ok") == 2 + 4 + 4, "round 2's four probes done", LIMIT);
        List<PairStats> window = mesh.pingmesh.results().pairStats(System.currentTimeMillis());
        PairStats measured = window.stream().filter(s -> s.src().equals(roce("n1")) && s.dst().equals(roce("n2")))
                .findFirst().orElseThrow();
        assertEquals(new PairStats(roce("n1"), roce("n2"), "rack-a", "rack-a", 20 + 19 + 19, 20, 3e-6, 3e-6, 3, 1, 1,
                20), measured);
        Map<String, Long> resent = Map.of("rcvd_seq_err", 2L, "completer_retry_err", 1L, "out_of_seq_request", 0L);
        assertEquals(List.of(measured), PingmeshVerdicts.confirmedLoss(List.of(measured), port -> resent),
                "the transport resent: the timeout is loss");
        Map<String, Long> still = Map.of("rcvd_seq_err", 0L, "completer_retry_err", 0L, "out_of_seq_request", 0L);
        assertEquals(List.of(new PairStats(roce("n1"), roce("n2"), "rack-a", "rack-a", 19 + 19, 0, 3e-6, 3e-6, 2, 0)),
                PingmeshVerdicts.confirmedLoss(List.of(measured), port -> still), "no retransmission: the host stalled");
    }

    @Test
    void aClientStillRunningIsNotStartedAgain() throws Exception {
        nodes(HANGING, HEALTHY, HEALTHY, HEALTHY);
        round(0);
        waitFor(() -> outcomes("ok") == 12, "the probes without n1 as client done", LIMIT);
        round(1);
        waitFor(() -> outcomes("skipped") == 4, "n1's clients of round 1 skipped", LIMIT);
        List<ProbePoint> history = pingmesh.results().history(new PingmeshResults.Pair(erdma("n1"), erdma("n2")));
        assertEquals(1, history.size());
        assertTrue(history.get(0).error().contains("is still the client of pm-"), history.get(0).error());
    }

    @Test
    void aRoundThatFindsEveryPortBusyIsPlannedAgainSoThatNoOffsetIsAlwaysSkipped() throws Exception {
        nodes(HANGING, HANGING, HANGING, HANGING);
        round(7);
        waitFor(() -> agents.starts().size() == 8 * 2, "round 7's first slot started: 8 probes, server and client each",
                LIMIT);
        assertEquals(8, onContext(pingmesh::nextRound));
        round(8);
        waitFor(() -> outcomes("skipped") == 8, "round 8's first slot skipped: every client still runs", LIMIT);
        assertEquals(8, onContext(pingmesh::nextRound), "round 8 is planned again");
        assertEquals(8 * 2, agents.starts().size(), "no probe of round 8 started");
    }

    @Test
    void finishedSystemProbesKeepTheirOwnHistoryAndNeverPushAnOperatorsOut(Vertx vertx) throws Exception {
        MeshFixture small = new MeshFixture(vertx, ProbeConfig.defaults().withHistorySize(5));
        small.nodes(HEALTHY, HEALTHY, HEALTHY, HEALTHY);
        small.onContext(() -> small.orchestrator.start(new ProbeRequest(new Endpoint("n1", "mlx5_0", 2),
                new Endpoint("n3", "mlx5_0", 2), 65_536, 5, 1, null, false), new Requester("operator", null, null)));
        small.round(0);
        waitFor(() -> small.outcomes("ok") == 16, "16 probes done", LIMIT);
        JsonArray all = small.onContext(() -> small.orchestrator.list(true)).getJsonArray("probes");
        assertEquals(6, all.size(), "the operator's probe and the 5 newest system probes");
        assertEquals(1, all.stream().filter(p -> ((JsonObject) p).getString("id").startsWith("pr-")).count());
        assertEquals(1, small.onContext(() -> small.orchestrator.list(false)).getJsonArray("probes").size());
    }
}
