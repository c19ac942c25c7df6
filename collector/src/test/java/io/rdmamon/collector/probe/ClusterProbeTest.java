package io.rdmamon.collector.probe;

import io.rdmamon.collector.CollectorConfig;
import io.rdmamon.collector.cluster.TestReplicas;
import io.rdmamon.protocol.probe.PerftestResult;
import io.rdmamon.protocol.probe.ProbePhase;
import io.rdmamon.protocol.probe.ProbeRole;
import io.rdmamon.protocol.testing.Waits;
import io.rdmamon.protocol.wire.Frame;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.WebSocketClient;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.Duration;
import java.util.List;

import static io.rdmamon.protocol.testing.Waits.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A probe between agents held by two replicas, requested on a third (docs/architecture.md "Cluster"): three real
 * replicas (clustered
 * Vert.x with Infinispan on loopback). The third fetches both nodes' samples from their replicas for its checks and
 * the server address, its frames reach the agents through their replicas, and their reports come back to it.
 */
@ExtendWith(VertxExtension.class)
class ClusterProbeTest {
    private static final PerftestResult RESULT = new PerftestResult(65_536, 178_000, 95.1e9, 92.0e9, 175_450.0);

    @Test
    void aProbeBetweenAgentsOfTwoReplicasRequestedOnAThirdRunsToItsResult(Vertx client) throws Exception {
        // the replicas are several clustered Vert.x instances (TestReplicas): the extension's one plain instance is the
        // client
        try (TestReplicas replicas = TestReplicas.start(3, CollectorConfig.defaults())) {
            WebSocketClient sockets = client.createWebSocketClient();
            FakeAgent src = new FakeAgent(sockets, replicas.replica(0).port(), null, "cp-src");
            FakeAgent dst = new FakeAgent(sockets, replicas.replica(1).port(), null, "cp-dst");
            WebClient http = WebClient.create(client);
            int third = replicas.replica(2).port();
            JsonObject request = new JsonObject()
                    .put("source", new JsonObject().put("node", "cp-src").put("device", "mlx5_0").put("port", 1))
                    .put("destination", new JsonObject().put("node", "cp-dst").put("device", "mlx5_0").put("port", 1))
                    .put("durationSeconds", 2);
            HttpResponse<Buffer> started = await(http.request(HttpMethod.POST, third, "127.0.0.1", "/api/probes")
                    .sendJsonObject(request));
            assertEquals(202, started.statusCode(), started.bodyAsString());
            String id = started.bodyAsJsonObject().getString("id");

            Frame.ProbeStart server = dst.nextStart();
            assertEquals(ProbeRole.SERVER, server.role());
            assertEquals(id, server.probeId());
            dst.listening(id, 18_515);
            Frame.ProbeStart clientStart = src.nextStart();
            assertEquals(ProbeRole.CLIENT, clientStart.role());
            assertEquals("192.168.1.2", clientStart.serverAddress(), "the destination's RoCE v2 GID, from its replica's sample");
            assertEquals(18_515, clientStart.tcpPort());

            src.report(id, ProbeRole.CLIENT, ProbePhase.RUNNING, 0, null, null, null, List.of());
            src.report(id, ProbeRole.CLIENT, ProbePhase.DONE, 0, RESULT, 0, null, List.of());
            JsonObject done = Waits.poll("the probe done on the replica that runs it", () -> await(http.request(
                            HttpMethod.GET, third, "127.0.0.1", "/api/probes/" + id).send()).bodyAsJsonObject(),
                    probe -> "done".equals(probe.getString("state")), Duration.ofSeconds(20), Duration.ofMillis(100));
            assertEquals(92.0e9, done.getJsonObject("result").getDouble("bandwidthBitsPerSecond"), 1e6);
            // every replica answers for it: the list gathers every replica's probes, one probe comes from its runner
            JsonObject listed = await(http.request(HttpMethod.GET, replicas.replica(0).port(), "127.0.0.1", "/api/probes")
                    .send()).bodyAsJsonObject();
            assertEquals(List.of(id), listed.getJsonArray("probes").stream().map(p -> ((JsonObject) p).getString("id")).toList());
            HttpResponse<Buffer> elsewhere = await(http.request(HttpMethod.GET, replicas.replica(1).port(), "127.0.0.1",
                    "/api/probes/" + id).send());
            assertEquals(200, elsewhere.statusCode(), elsewhere.bodyAsString());
            assertEquals("done", elsewhere.bodyAsJsonObject().getString("state"));
            assertEquals(404, await(http.request(HttpMethod.GET, replicas.replica(1).port(), "127.0.0.1",
                    "/api/probes/pr-none").send()).statusCode());
        }
    }
}
