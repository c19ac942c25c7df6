package io.rdmamon.collector.cluster;

import io.rdmamon.collector.CollectorConfig;
import io.rdmamon.collector.RawAgent;
import io.rdmamon.protocol.model.HostSample;
import io.rdmamon.protocol.testing.FixtureHosts;
import io.rdmamon.protocol.wire.Frame;
import io.rdmamon.protocol.wire.SampleEncoder;
import io.vertx.core.Vertx;
import io.vertx.core.http.WebSocketClient;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.WebClient;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import static io.rdmamon.protocol.testing.Waits.await;
import static io.rdmamon.protocol.testing.Waits.waitFor;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Two real replicas (clustered Vert.x + Infinispan on loopback): membership, the node directory, moves, shutdown. */
@ExtendWith(VertxExtension.class)
class ReplicasTest {
    private static TestReplicas replicas;
    private static Vertx client;
    private static WebClient web;
    private static WebSocketClient sockets;

    @BeforeAll
    static void start(Vertx vertx) throws Exception {
        // the replicas are several clustered Vert.x instances (TestReplicas): the extension's one plain instance is the client
        replicas = TestReplicas.start(2, CollectorConfig.defaults());
        client = vertx;
        web = WebClient.create(client);
        sockets = client.createWebSocketClient();
    }

    @AfterAll
    static void stop() throws Exception {
        if (replicas != null) {
            replicas.close();
        }
    }

    private static JsonObject get(int replica, String path) throws Exception {
        return await(web.get(replicas.replica(replica).port(), "127.0.0.1", path).send()).bodyAsJsonObject();
    }

    private static SampleEncoder run(String instance) {
        return run("move-me", instance);
    }

    private static SampleEncoder run(String node, String instance) {
        return new SampleEncoder(node, "test", 1000, List.of(), instance);
    }

    @Test
    void aBrowserOfOneReplicaGetsTheNodesOfTheOtherOverTheLiveFeed() throws Exception {
        new RawAgent(sockets, replicas.replica(0).port(), null).sample(run("live-a", "la"),
                FixtureHosts.golden("live-a", System.currentTimeMillis(), 1), 1);
        String heldBy = replicas.replica(0).cluster().selfId();
        java.util.concurrent.LinkedBlockingQueue<String> fleetEvents = new java.util.concurrent.LinkedBlockingQueue<>();
        io.vertx.core.http.HttpClient http = client.createHttpClient();
        io.vertx.core.http.HttpClientResponse response = await(http.request(io.vertx.core.http.HttpMethod.GET,
                replicas.replica(1).port(), "127.0.0.1", "/api/live").compose(io.vertx.core.http.HttpClientRequest::send));
        StringBuilder pending = new StringBuilder();
        response.handler(chunk -> {
            pending.append(chunk.toString());
            int end;
            while ((end = pending.indexOf("\n\n")) >= 0) {
                String event = pending.substring(0, end);
                pending.delete(0, end + 2);
                if (event.startsWith("event: fleet")) {
                    fleetEvents.add(event.substring(event.indexOf("data: ") + 6));
                }
            }
        });
        String seen = null;
        long deadline = System.nanoTime() + java.time.Duration.ofSeconds(30).toNanos();
        while (seen == null && System.nanoTime() < deadline) {
            String data = fleetEvents.poll(1, java.util.concurrent.TimeUnit.SECONDS);
            if (data != null && data.contains("\"node\":\"live-a\"")) {
                seen = data;
            }
        }
        assertTrue(seen != null, "replica 1's live feed shows live-a, held by replica 0");
        JsonObject row = new JsonObject(seen).getJsonArray("nodes").stream().map(n -> (JsonObject) n)
                .filter(n -> n.getString("node").equals("live-a")).findFirst().orElseThrow();
        assertEquals(heldBy, row.getString("replica"));
        assertTrue(row.getJsonArray("ports").size() > 0, "the whole row, as replica 0 built it");
        await(http.close());
    }

    private static double busBytes(int replica) throws Exception {
        return counter(replica, "rdmamon_collector_live_bus_bytes_total");
    }

    /** An unlabelled series of {@code replica}'s /metrics. */
    private static double counter(int replica, String series) throws Exception {
        String metrics = await(web.get(replicas.replica(replica).port(), "127.0.0.1", "/metrics").send()).bodyAsString();
        return metrics.lines().filter(l -> l.startsWith(series + " "))
                .mapToDouble(l -> Double.parseDouble(l.substring(l.indexOf(' ') + 1))).findFirst().orElseThrow();
    }

    @Test
    void overviewRowsTravelOnlyWhileSomeReplicaHasABrowser() throws Exception {
        RawAgent agent = new RawAgent(sockets, replicas.replica(0).port(), null);
        SampleEncoder encoder = run("quiet-a", "qa");
        long[] seq = {0};
        long timer = client.setPeriodic(300, id -> {
            try {
                for (Frame frame : encoder.encode(FixtureHosts.golden("quiet-a", System.currentTimeMillis(), ++seq[0]), seq[0])) {
                    agent.send(frame);
                }
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        try {
            // samples change the node's row every tick; with no browser anywhere nothing is published. The ticks are
            // not visible from here, so a window is 8 samples ingested: 300 ms apart, they span two 1 s ticks or more.
            // Windows repeat until one is quiet: an earlier test's browser may take a moment to be forgotten
            double[] last = {busBytes(0)};
            io.rdmamon.protocol.testing.Waits.poll("replica 0 publishes nothing while nobody watches", () -> {
                double windowEnd = counter(0, "rdmamon_collector_samples_ingested_total") + 8;
                io.rdmamon.protocol.testing.Waits.poll("8 more samples ingested by replica 0",
                        () -> counter(0, "rdmamon_collector_samples_ingested_total"), n -> n >= windowEnd,
                        java.time.Duration.ofSeconds(20), java.time.Duration.ofMillis(100));
                double now = busBytes(0);
                boolean quiet = now == last[0];
                last[0] = now;
                return quiet;
            }, quiet -> quiet, java.time.Duration.ofSeconds(30), java.time.Duration.ofMillis(1));
            io.vertx.core.http.HttpClient http = client.createHttpClient();
            await(http.request(io.vertx.core.http.HttpMethod.GET, replicas.replica(1).port(), "127.0.0.1", "/api/live")
                    .compose(io.vertx.core.http.HttpClientRequest::send));
            double before = busBytes(0);
            io.rdmamon.protocol.testing.Waits.poll("replica 0 publishes once replica 1 has a browser",
                    () -> busBytes(0), now -> now > before, java.time.Duration.ofSeconds(20), java.time.Duration.ofMillis(250));
            await(http.close());
        } finally {
            client.cancelTimer(timer);
        }
    }

    @Test
    void everyReplicaAnswersForTheWholeFleetAndForwardsANodesDetailToItsReplica() throws Exception {
        new RawAgent(sockets, replicas.replica(0).port(), null).sample(run("fleet-a", "a"),
                FixtureHosts.golden("fleet-a", System.currentTimeMillis(), 1), 1);
        new RawAgent(sockets, replicas.replica(1).port(), null).sample(run("fleet-b", "b"),
                FixtureHosts.golden("fleet-b", System.currentTimeMillis(), 1), 1);
        String a = replicas.replica(0).cluster().selfId();
        String b = replicas.replica(1).cluster().selfId();
        for (int i = 0; i < 2; i++) {
            JsonObject list = get(i, "/api/nodes");
            java.util.Map<String, String> held = list.getJsonArray("nodes").stream().map(n -> (JsonObject) n)
                    .filter(n -> n.getString("node").startsWith("fleet-"))
                    .collect(Collectors.toMap(n -> n.getString("node"), n -> n.getString("replica")));
            assertEquals(java.util.Map.of("fleet-a", a, "fleet-b", b), held, "replica " + i + ": " + list.encode());
            assertTrue(!list.containsKey("missingReplicas"), list.encode());
            assertTrue(get(i, "/api/diagnoses").containsKey("diagnoses"));
        }
        JsonObject remote = get(1, "/api/nodes/fleet-a");
        assertEquals("fleet-a", remote.getString("node"));
        assertEquals(a, remote.getString("replica"), "answered by the replica holding it");
        assertTrue(remote.getJsonArray("devices").size() > 0, "the whole detail crossed the event bus");
        assertEquals("fleet-a", get(1, "/api/nodes/fleet-a/history").getString("node"));
        JsonObject events = get(1, "/api/nodes/fleet-a/events");
        assertEquals("fleet-a", events.getString("node"));
        assertTrue(events.getJsonArray("changes") != null, "the holder's change log slice: " + events.encode());
        var unknown = await(web.get(replicas.replica(1).port(), "127.0.0.1", "/api/nodes/nowhere").send());
        assertEquals(404, unknown.statusCode(), "a node no replica holds is the local 404");
    }

    private static HostSample sample(long seq) {
        return FixtureHosts.golden("move-me", System.currentTimeMillis(), seq);
    }

    @Test
    void everyReplicaListsBothMembersWithTheirAddressesAndApi() throws Exception {
        for (int i = 0; i < 2; i++) {
            JsonObject cluster = get(i, "/api/cluster");
            assertEquals(true, cluster.getBoolean("clustered"));
            assertEquals(replicas.replica(i).cluster().selfId(), cluster.getString("self"));
            JsonArray members = cluster.getJsonArray("members");
            assertEquals(2, members.size(), cluster.encodePrettily());
            assertEquals(cluster.getString("self"), members.getJsonObject(0).getString("id"), "self listed first");
            Set<String> apis = members.stream().map(m -> ((JsonObject) m).getString("api")).collect(Collectors.toSet());
            assertEquals(Set.of("http://127.0.0.1:" + replicas.replica(0).port(),
                    "http://127.0.0.1:" + replicas.replica(1).port()), apis);
        }
    }

    @Test
    void aNodeHeldByOneReplicaIsRefusedToAnotherRunButMovesWithItsOwnRun() throws Exception {
        RawAgent first = new RawAgent(sockets, replicas.replica(0).port(), null);
        first.sample(run("run-1"), sample(1), 1);
        String firstOwner = replicas.replica(0).cluster().selfId();
        io.rdmamon.protocol.testing.Waits.poll("the directory, read on the other replica, naming replica 0",
                () -> await(replicas.replica(1).cluster().directory().owner("move-me")).map(NodeOwner::replica).orElse(""),
                firstOwner::equals, java.time.Duration.ofSeconds(30), java.time.Duration.ofMillis(100));

        RawAgent impostor = new RawAgent(sockets, replicas.replica(1).port(), null);
        for (Frame frame : run("run-2").encode(sample(1), 1)) {
            try {
                impostor.send(frame);
            } catch (java.util.concurrent.ExecutionException e) {
                // refused at its hello: the close can overtake the sample's frames on a loaded machine
                break;
            }
        }
        assertEquals(1008, impostor.closed(), "another run of the name while replica 0 holds a live stream");

        // the same run reconnecting to replica 1 (its replica 0 connection half-open): a move
        RawAgent moved = new RawAgent(sockets, replicas.replica(1).port(), null);
        moved.sample(run("run-1"), sample(2), 2);
        assertEquals(4010, first.closed(), "replica 0 closes the connection left behind");
        waitFor(() -> replicas.replica(0).store().node("move-me").isEmpty(), "replica 0 drops the node");
        assertTrue(replicas.replica(1).store().node("move-me").isPresent());
        // the directory's write is replicated: replica 0 sees the new owner once it has arrived there
        String newOwner = replicas.replica(1).cluster().selfId();
        io.rdmamon.protocol.testing.Waits.poll("replica 0's directory naming replica 1 as the owner",
                () -> await(replicas.replica(0).cluster().directory().owner("move-me")).map(NodeOwner::replica).orElse(""),
                newOwner::equals, java.time.Duration.ofSeconds(30), java.time.Duration.ofMillis(100));
    }

    /**
     * A node moving between live replicas is exported by one or the other at every moment: the replica it left is told
     * to let go once the node's first sample is stored on the new one, not at the hello (a scrape in between would
     * find it on neither).
     */
    @Test
    void aMovingNodeStaysOnItsOldReplicaUntilItsFirstSampleIsStoredOnTheNew() throws Exception {
        RawAgent first = new RawAgent(sockets, replicas.replica(0).port(), null);
        first.sample(run("handed-over", "hand-1"), sample(1), 1);

        RawAgent moved = new RawAgent(sockets, replicas.replica(1).port(), null);
        List<Frame> frames = run("handed-over", "hand-1").encode(sample(2), 2);
        moved.send(frames.get(0)); // the hello alone: claimed and registered on replica 1, no sample yet
        waitFor(() -> replicas.replica(1).store().node("handed-over").isPresent(), "replica 1 registers the node");
        String newOwner = replicas.replica(1).cluster().selfId();
        io.rdmamon.protocol.testing.Waits.poll("replica 0's directory naming replica 1 as the owner",
                () -> await(replicas.replica(0).cluster().directory().owner("handed-over")).map(NodeOwner::replica).orElse(""),
                newOwner::equals, java.time.Duration.ofSeconds(30), java.time.Duration.ofMillis(100));
        // replica 1 asks replica 0 for its nodes over the event bus, which delivers one sender's messages to a
        // receiver in order: a release sent at the claim would have been handled by the time this is answered
        get(1, "/api/nodes");
        assertTrue(replicas.replica(0).store().node("handed-over").isPresent(),
                "replica 0 keeps the node while replica 1 has no sample of it");
        assertEquals(null, first.closeCode, "nor is its old connection closed yet");

        for (Frame frame : frames.subList(1, frames.size())) {
            moved.send(frame);
        }
        assertEquals(new Frame.Ack(2), moved.received.poll(10, java.util.concurrent.TimeUnit.SECONDS));
        assertEquals(4010, first.closed(), "replica 0 closes the connection left behind");
        waitFor(() -> replicas.replica(0).store().node("handed-over").isEmpty(), "replica 0 drops the node");
    }
}
