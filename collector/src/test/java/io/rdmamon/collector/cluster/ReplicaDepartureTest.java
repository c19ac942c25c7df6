package io.rdmamon.collector.cluster;

import io.rdmamon.collector.Collector;
import io.rdmamon.collector.CollectorConfig;
import io.rdmamon.collector.RawAgent;
import io.rdmamon.protocol.testing.FixtureHosts;
import io.rdmamon.protocol.wire.SampleEncoder;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.WebSocketClient;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

import static io.rdmamon.protocol.testing.Waits.await;
import static io.rdmamon.protocol.testing.Waits.poll;
import static io.rdmamon.protocol.testing.Waits.waitFor;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A replica leaving: drained on shutdown (close 1012), or crashed (its directory entries purged by the survivor). */
@ExtendWith(VertxExtension.class)
class ReplicaDepartureTest {
    private TestReplicas replicas;
    private Vertx client;
    private WebSocketClient sockets;

    @BeforeEach
    void start(Vertx client) throws Exception {
        // the replicas are several clustered Vert.x instances (TestReplicas): the extension's one plain instance is the client
        this.client = client;
        sockets = client.createWebSocketClient();
    }

    @AfterEach
    void stop() throws Exception {
        if (replicas != null) {
            replicas.close();
        }
    }

    private RawAgent agentOn(int replica, String node) throws Exception {
        RawAgent agent = new RawAgent(sockets, replicas.replica(replica).port(), null);
        agent.sample(new SampleEncoder(node, "test", 1000, List.of(), node + "-run"),
                FixtureHosts.golden(node, System.currentTimeMillis(), 1), 1);
        return agent;
    }

    @Test
    void aReplicaShuttingDownTellsItsAgentsToMoveAndLeavesTheCluster() throws Exception {
        replicas = TestReplicas.start(2, CollectorConfig.defaults());
        RawAgent agent = agentOn(1, "drained");
        replicas.stop(1);
        assertEquals(1012, agent.closed(), "Service Restart: move to the next collector at once");
        assertTrue(agent.closeReason.contains("shutting down"), agent.closeReason);
        replicas.awaitMembers(1);
        FleetCluster survivor = replicas.replica(0).cluster();
        poll("the survivor purges the entry", () -> await(survivor.directory().owner("drained")), Optional::isEmpty,
                Duration.ofSeconds(20), Duration.ofMillis(100));
        assertEquals(1, await(survivor.members()).size());
    }

    /**
     * A rolling restart loses no node from {@code /metrics}: the replica shutting down goes on serving the nodes it
     * closed until another replica has taken them over, and refuses new agents meanwhile.
     */
    @Test
    void aReplicaShuttingDownServesItsNodesUntilAnotherReplicaTookThemOverAndAdmitsNoOne() throws Exception {
        replicas = TestReplicas.start(2, CollectorConfig.defaults(), ClusterTls.NONE, ClusterConfig.DEFAULT_HANDOVER);
        RawAgent agent = agentOn(1, "handed");
        Collector.Running leaving = replicas.replica(1);
        Future<Void> closing = replicas.beginStop(1);
        assertEquals(1012, agent.closed());

        assertTrue(metrics(leaving.port()).contains("rdma_agent_up{node=\"handed\"}"),
                "the node is still exported where it was, for no one else has it yet");
        RawAgent late = new RawAgent(sockets, leaving.port(), null);
        late.send(new SampleEncoder("late", "test", 1000, List.of(), "late-run")
                .encode(FixtureHosts.golden("late", System.currentTimeMillis(), 1), 1).get(0));
        assertEquals(1012, late.closed(), "a hello while shutting down is sent on like the streams closed");
        assertTrue(late.closeReason.contains("shutting down"), late.closeReason);
        assertFalse(closing.isComplete(), "the replica waits for its node's new replica");

        agentOn(0, "handed"); // the agent's next URL: the same run (instance), replaying
        await(closing, Duration.ofSeconds(60));
        assertTrue(leaving.store().node("handed").isEmpty(), "dropped where it was once taken over, not before");
        assertEquals(replicas.replica(0).cluster().selfId(),
                await(replicas.replica(0).cluster().directory().owner("handed")).orElseThrow().replica());
    }

    private static String metrics(int port) throws Exception {
        HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + port + "/metrics")).timeout(Duration.ofSeconds(10)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, response.statusCode());
        return response.body();
    }

    @Test
    void aCrashedReplicasNodesLeaveTheDirectoryAndMayConnectElsewhere() throws Exception {
        replicas = TestReplicas.start(2, CollectorConfig.defaults());
        agentOn(1, "orphan");
        String crashed = replicas.replica(1).cluster().selfId();
        FleetCluster survivor = replicas.replica(0).cluster();
        assertEquals(crashed, await(survivor.directory().owner("orphan")).orElseThrow().replica());
        // no goodbye: the crashed replica's member port goes silent at once, as kill -9 looks to the others
        replicas.crash(1);

        waitFor(() -> !survivor.isMember(crashed), "the survivor notices the crash", Duration.ofSeconds(30));
        poll("the crashed replica's entry is purged", () -> await(survivor.directory().owner("orphan")),
                Optional::isEmpty, Duration.ofSeconds(20), Duration.ofMillis(100));
        RawAgent again = new RawAgent(sockets, replicas.replica(0).port(), null);
        again.sample(new SampleEncoder("orphan", "test", 1000, List.of(), "orphan-run"),
                FixtureHosts.golden("orphan", System.currentTimeMillis(), 2), 2);
        assertEquals(survivor.selfId(), await(survivor.directory().owner("orphan")).orElseThrow().replica());
    }
}
