package io.rdmamon.collector.pingmesh;

import io.rdmamon.collector.Collector;
import io.rdmamon.collector.CollectorConfig;
import io.rdmamon.collector.auth.Role;
import io.rdmamon.collector.auth.TokenEntry;
import io.rdmamon.collector.web.ApiAnswer;
import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static io.rdmamon.collector.pingmesh.FakeMeshAgents.Behaviour.DEAD;
import static io.rdmamon.collector.pingmesh.FakeMeshAgents.Behaviour.HEALTHY;
import static io.rdmamon.collector.pingmesh.FakeMeshAgents.Behaviour.LOSSY;
import static io.rdmamon.protocol.testing.Waits.await;
import static io.rdmamon.protocol.testing.Waits.waitFor;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code /api/pingmesh} and {@code /api/pingmesh/pair} over a round of scripted agents ({@link MeshFixture}). */
@ExtendWith(VertxExtension.class)
class PingmeshApiTest {
    private MeshFixture mesh;
    private PingmeshApi api;

    @BeforeEach
    void setUp(Vertx vertx) throws Exception {
        mesh = new MeshFixture(vertx);
        api = new PingmeshApi(vertx, mesh.pingmesh, () -> new JsonArray().add("verdict"));
        mesh.nodes(HEALTHY, LOSSY, HEALTHY, DEAD);
        mesh.round(0);
        waitFor(() -> mesh.ended() == 16, "16 probes ended", Duration.ofSeconds(20));
    }

    private static JsonObject ok(ApiAnswer answer) {
        assertEquals(200, answer.status(), answer.json());
        return new JsonObject(answer.json());
    }

    private static List<String> ports(JsonObject matrix) {
        List<String> names = new ArrayList<>();
        for (Object p : matrix.getJsonArray("ports")) {
            JsonObject port = (JsonObject) p;
            names.add(port.getString("node") + "/" + port.getString("device") + "/" + port.getInteger("port"));
        }
        return names;
    }

    @Test
    void theMatrixListsGroupsPortsAndCompactCells() {
        JsonObject matrix = ok(api.matrix(null, System.currentTimeMillis()));
        assertEquals(true, matrix.getBoolean("enabled"));
        assertEquals(2, matrix.getInteger("roundSeconds"));
        assertEquals(60, matrix.getInteger("windowSeconds"));
        assertEquals(0.033554432, matrix.getDouble("lossRttSeconds"), 1e-12);
        assertEquals(new JsonArray().add(new JsonObject().put("name", "rack-a").put("source", "config").put("ports", 4))
                .add(new JsonObject().put("name", "rack-b").put("source", "config").put("ports", 4)),
                matrix.getJsonArray("groups"));
        List<String> ports = ports(matrix);
        assertEquals(List.of("n1/erdma_0/1", "n1/mlx5_0/1", "n2/erdma_0/1", "n2/mlx5_0/1", "n3/erdma_0/1",
                "n3/mlx5_0/1", "n4/erdma_0/1", "n4/mlx5_0/1"), ports, "group by group, then node, device, port");
        JsonObject n4 = matrix.getJsonArray("ports").getJsonObject(7);
        assertEquals("unreachable", n4.getString("state"));
        assertEquals("rack-b", n4.getString("group"));
        assertEquals("loss", matrix.getJsonArray("ports").getJsonObject(3).getString("state"), "n2 is the lossy one");
        JsonArray cells = matrix.getJsonArray("cells");
        assertEquals(16, cells.size());
        JsonArray n1n2 = null;
        for (Object c : cells) {
            JsonArray cell = (JsonArray) c;
            assertEquals(7, cell.size(), cell.encode());
            if (ports.get(cell.getInteger(0)).equals("n1/mlx5_0/1") && ports.get(cell.getInteger(1)).equals("n2/mlx5_0/1")) {
                n1n2 = cell;
            }
        }
        assertEquals(List.of(19, 4), List.of(n1n2.getInteger(2), n1n2.getInteger(3)), n1n2.encode());
        assertEquals(3e-6, n1n2.getDouble(4), 1e-12);
        assertEquals(0.1, n1n2.getDouble(5), 1e-12, "the p99 is a retransmitted round trip");
        assertTrue(n1n2.getInteger(6) >= 0 && n1n2.getInteger(6) <= 60, "age in seconds");
        assertEquals(new JsonArray().add("verdict"), matrix.getJsonArray("verdicts"), "the verdicts hook");
    }

    @Test
    void aGroupFilterListsItsPortsThenThePeersOfItsCells() {
        JsonObject matrix = ok(api.matrix("rack-a", System.currentTimeMillis()));
        List<String> ports = ports(matrix);
        assertEquals(List.of("n1/erdma_0/1", "n1/mlx5_0/1", "n2/erdma_0/1", "n2/mlx5_0/1"), ports.subList(0, 4));
        assertTrue(ports.size() > 4, "rack-b peers listed for the cells that reach them");
        JsonArray cells = matrix.getJsonArray("cells");
        assertEquals(12, cells.size(), "4 inside rack-a, 4 out, 4 in");
        for (Object c : cells) {
            JsonArray cell = (JsonArray) c;
            assertTrue(cell.getInteger(0) < 4 || cell.getInteger(1) < 4, "a cell that does not touch rack-a: " + cell);
        }
        assertEquals(2, matrix.getJsonArray("groups").size(), "every group stays listed");
        ApiAnswer unknown = api.matrix("rack-z", System.currentTimeMillis());
        assertEquals(404, unknown.status());
        assertEquals("group: unknown group 'rack-z'", new JsonObject(unknown.json()).getString("error"));
    }

    private static MultiMap pair(String src, String dst) {
        String[] s = src.split("/");
        String[] d = dst.split("/");
        return MultiMap.caseInsensitiveMultiMap().add("srcNode", s[0]).add("srcDevice", s[1]).add("srcPort", s[2])
                .add("dstNode", d[0]).add("dstDevice", d[1]).add("dstPort", d[2]);
    }

    @Test
    void aPairShowsItsPointsAndBothEndsCounters() {
        JsonObject pair = ok(api.pair(pair("n1/mlx5_0/1", "n2/mlx5_0/1"), System.currentTimeMillis()));
        assertEquals(new JsonObject().put("node", "n1").put("device", "mlx5_0").put("port", 1).put("group", "rack-a"),
                pair.getJsonObject("src"));
        JsonArray points = pair.getJsonArray("points");
        assertEquals(1, points.size());
        JsonObject point = points.getJsonObject(0);
        assertEquals(List.of(19, 4, false), List.of(point.getInteger("sent"), point.getInteger("lost"),
                point.getBoolean("failed")));
        assertNull(point.getString("error"));
        // the golden RoCE port: PFC on priority 3, out_of_sequence; no change within one snapshot
        JsonObject counters = pair.getJsonObject("counters").getJsonObject("src");
        assertEquals(Set.of("rx_prio3_pause", "tx_prio3_pause", "out_of_sequence"), counters.fieldNames());
        assertEquals(0L, counters.getLong("out_of_sequence"));

        JsonObject dead = ok(api.pair(pair("n3/mlx5_0/1", "n4/mlx5_0/1"), System.currentTimeMillis()));
        JsonObject failed = dead.getJsonArray("points").getJsonObject(0);
        assertEquals(List.of(20, 20, true, false), List.of(failed.getInteger("sent"), failed.getInteger("lost"),
                failed.getBoolean("failed"), failed.getBoolean("timedOut")), "perftest failed: no timeout");
        assertEquals("Couldn't connect to 192.168.1.2:18515", failed.getString("error"));
        assertNull(failed.getValue("p50Seconds"));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', textBlock = """
            srcNode    |          | srcNode: required
            srcDevice  | mlx5/0   | srcDevice: 'mlx5/0' is not an RDMA device name
            srcPort    | one      | srcPort: 'one' is not a number
            dstPort    | 300      | dstPort: 300 is outside 1..255
            dstNode    | -bad     | dstNode: must be a node name
            """)
    void badParametersAre400NamingTheParameter(String name, String value, String error) {
        MultiMap params = pair("n1/mlx5_0/1", "n2/mlx5_0/1");
        params.remove(name);
        if (value != null) {
            params.add(name, value);
        }
        ApiAnswer answer = api.pair(params, System.currentTimeMillis());
        assertEquals(400, answer.status());
        assertTrue(new JsonObject(answer.json()).getString("error").startsWith(error), answer.json());
    }

    @Test
    void anUnknownPortIs404() {
        ApiAnswer answer = api.pair(pair("n1/mlx5_0/1", "n9/mlx5_0/1"), System.currentTimeMillis());
        assertEquals(404, answer.status());
        assertEquals("unknown port n9/mlx5_0/1: not in the pingmesh", new JsonObject(answer.json()).getString("error"));
    }

    /** Through a real collector: the viewer role guards both routes; errors are JSON. */
    @Test
    void theRoutesAreMountedForViewers(Vertx vertx) throws Exception {
        Collector.Running collector = await(Collector.start(vertx, CollectorConfig.defaults().withListen("127.0.0.1:0")
                .withTokens(List.of(new TokenEntry(Role.VIEWER, "viewer-token", null)))));
        try {
            WebClient http = WebClient.create(vertx);
            HttpResponse<Buffer> anonymous = await(http.get(collector.port(), "127.0.0.1", "/api/pingmesh").send());
            assertEquals(401, anonymous.statusCode());
            HttpResponse<Buffer> matrix = await(http.get(collector.port(), "127.0.0.1", "/api/pingmesh")
                    .putHeader("Authorization", "Bearer viewer-token").send());
            assertEquals(200, matrix.statusCode(), matrix.bodyAsString());
            assertEquals(new HashSet<>(List.of("enabled", "roundSeconds", "windowSeconds", "lossRttSeconds", "groups",
                    "ports", "cells", "verdicts")), matrix.bodyAsJsonObject().fieldNames());
            HttpResponse<Buffer> bad = await(http.get(collector.port(), "127.0.0.1", "/api/pingmesh/pair?srcNode=a")
                    .putHeader("Authorization", "Bearer viewer-token").send());
            assertEquals(400, bad.statusCode());
            assertEquals("srcDevice: required", bad.bodyAsJsonObject().getString("error"));
        } finally {
            await(collector.close());
        }
    }
}
