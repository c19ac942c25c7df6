package io.rdmamon.agent.probe;

import io.rdmamon.agent.host.Fixtures;
import io.rdmamon.agent.host.HostReader;
import io.rdmamon.agent.probe.standin.StandInBinary;
import io.rdmamon.agent.probe.standin.StandInPerftest;
import io.rdmamon.agent.daemon.AgentDaemon;
import io.rdmamon.agent.daemon.AgentDaemonOptions;
import io.rdmamon.agent.stream.AgentStreamerOptions;
import io.rdmamon.collector.Collector;
import io.rdmamon.collector.CollectorConfig;
import io.rdmamon.collector.auth.Role;
import io.rdmamon.collector.auth.TokenEntry;
import io.rdmamon.collector.probe.ProbeConfig;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

import static io.rdmamon.protocol.testing.Waits.await;
import static io.rdmamon.protocol.testing.Waits.waitFor;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The whole probe path with real parts: a real collector with operator, viewer and agent tokens,
 * two real agents streaming fixture hosts over loopback, the REST API through a real HTTP client,
 * and perftest started as a child process by the agents (the stand-in, or Debian's ib_write_bw).
 */
@ExtendWith(VertxExtension.class)
class ProbeEndToEndTest {
    private static final String AGENT = "agent-token";
    private static final String VIEWER = "viewer-token";
    private static final String OPERATOR = "operator-token";
    /** IPv4-mapped GID of 127.0.0.1: the destination's RoCE v2 address, so the stand-in client reaches its server. */
    private static final String LOOPBACK_GID = "0000:0000:0000:0000:0000:ffff:7f00:0001";
    private static final String BODY = """
            {"source": {"node": "node-src", "device": "mlx5_0", "port": 1},
             "destination": {"node": "node-dst", "device": "mlx5_0", "port": 1},
             "sizeBytes": 65536, "durationSeconds": %d, "qps": 1}""";

    @TempDir
    Path dir;
    private Vertx vertx;
    private String base;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @BeforeEach
    void start(Vertx vertx) {
        this.vertx = vertx;
    }

    /** Collector and the two agents, whose perftest is {@code perftest}. */
    private void fleet(String perftest) throws Exception {
        CollectorConfig config = CollectorConfig.defaults().withListen("127.0.0.1:0")
                .withTokens(List.of(new TokenEntry(Role.AGENT, AGENT, null), new TokenEntry(Role.VIEWER, VIEWER, null),
                        new TokenEntry(Role.OPERATOR, OPERATOR, null)))
                .withProbes(ProbeConfig.defaults().withCooldown(Duration.ZERO));
        Collector.Running collector = await(Collector.start(vertx, config));
        base = "http://127.0.0.1:" + collector.port();
        Path source = Fixtures.copy("mlx5-roce", dir.resolve("node-src"));
        Path destination = Fixtures.copy("mlx5-roce", dir.resolve("node-dst"));
        Path gids = destination.resolve("sys/class/infiniband/mlx5_0/ports/1/gids");
        Files.writeString(gids.resolve("2"), LOOPBACK_GID + "\n");
        Files.writeString(gids.resolve("3"), LOOPBACK_GID + "\n");
        for (Map.Entry<String, Path> node : Map.of("node-src", source, "node-dst", destination).entrySet()) {
            HostReader reader = HostReader.forRoot(node.getValue());
            Duration interval = Duration.ofMillis(200);
            await(vertx.deployVerticle(new AgentDaemon(AgentDaemonOptions.of(node.getKey(), interval,
                    () -> reader.read(node.getKey())).withStreamer(AgentStreamerOptions.of(base, node.getKey())
                    .withToken(AGENT).withInterval(interval)
                    .withProbes(ProbeSettings.enabled(new ProcessPerftestLauncher(perftest), node.getValue(),
                            Duration.ofSeconds(60)))))));
        }
        // A probe needs each agent's first sample (its GIDs and link rate), not just its hello: wait for both.
        awaitJson(get("/api/nodes"), nodes -> nodes.getJsonArray("nodes").stream().map(JsonObject.class::cast)
                .filter(n -> n.getValue("lastSampleTimestampMillis") != null).map(n -> n.getString("node"))
                .toList().containsAll(List.of("node-src", "node-dst")));
    }

    @Test
    void aProbeMeasuresTheStandInsBandwidthAgainstTheLinkRate() throws Exception {
        fleet(StandInBinary.write(dir, Map.of("STANDIN_GBITS", "93.5")).toString());
        HttpResponse<String> created = post(OPERATOR, BODY.formatted(1));
        assertEquals(202, created.statusCode(), created.body());
        String id = new JsonObject(created.body()).getString("id");

        JsonObject done = awaitJson(get("/api/probes/" + id), p -> !List.of("queued", "server-ready", "running")
                .contains(p.getString("state")));
        assertEquals("done", done.getString("state"), done.encodePrettily());
        JsonObject result = done.getJsonObject("result");
        assertEquals(93.5e9, result.getDouble("bandwidthBitsPerSecond"), 1);
        assertEquals(100e9, done.getDouble("linkRateBitsPerSecond"), 1, "fixture ports are 100 Gb/sec (4X EDR)");
        assertEquals(0.935, result.getDouble("linkRatio"), 1e-9);
        assertTrue(result.getBoolean("passed"));
        assertEquals(0, done.getInteger("exitCode"));
        assertEquals("127.0.0.1", done.getJsonObject("destination").getString("address"));
        assertTrue(done.getJsonArray("output").encode().contains("BW average[Gb/sec]"), done.encodePrettily());
    }

    @Test
    void aViewerCannotStartAProbe() throws Exception {
        fleet(StandInBinary.write(dir, Map.of()).toString());
        HttpResponse<String> refused = post(VIEWER, BODY.formatted(1));
        assertEquals(403, refused.statusCode(), refused.body());
        assertEquals(0, new JsonObject(send(HttpRequest.newBuilder(URI.create(base + "/api/probes"))
                .header("Authorization", "Bearer " + VIEWER).GET()).body()).getJsonArray("probes").size());
    }

    @Test
    void cancellingALongRunLeavesNoStandInProcess() throws Exception {
        String marker = "302." + System.nanoTime() % 1_000_000_000L;
        fleet(StandInBinary.write(dir, Map.of("STANDIN_GRANDCHILD_SLEEP", marker)).toString());
        String id = new JsonObject(post(OPERATOR, BODY.formatted(30)).body()).getString("id");
        awaitJson(get("/api/probes/" + id), p -> p.getString("state").equals("running"));
        assertTrue(processesWith(marker) > 0, "the stand-ins run");

        HttpResponse<String> cancelled = send(HttpRequest.newBuilder(URI.create(base + "/api/probes/" + id))
                .header("Authorization", "Bearer " + OPERATOR).DELETE());
        assertEquals(200, cancelled.statusCode(), cancelled.body());
        assertEquals("cancelled", new JsonObject(cancelled.body()).getString("state"));
        waitFor(() -> processesWith(marker) + processesWith(StandInPerftest.class.getName()) == 0,
                "no stand-in processes left after the cancel");
    }

    @Test
    void debianPerftestWithoutDevicesFailsTheProbeWithItsOwnWords() throws Exception {
        Path binary = Path.of("/usr/bin/ib_write_bw");
        Assumptions.assumeTrue(Files.isExecutable(binary), "Debian perftest is not installed (/usr/bin/ib_write_bw)");
        fleet(binary.toString());
        String id = new JsonObject(post(OPERATOR, BODY.formatted(1)).body()).getString("id");
        JsonObject failed = awaitJson(get("/api/probes/" + id), p -> p.getString("state").equals("failed")
                || p.getString("state").equals("done"));
        assertEquals("failed", failed.getString("state"));
        assertEquals(1, failed.getInteger("exitCode"));
        assertTrue(failed.getString("error").contains(" Did not detect devices "), failed.getString("error"));
        assertFalse(failed.getString("error").contains("did not finish"), "perftest's exit, not a timeout");
    }

    private HttpResponse<String> post(String token, String body) throws Exception {
        return send(HttpRequest.newBuilder(URI.create(base + "/api/probes")).header("Authorization", "Bearer " + token)
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)));
    }

    private HttpRequest.Builder get(String path) {
        return HttpRequest.newBuilder(URI.create(base + path)).header("Authorization", "Bearer " + VIEWER).GET();
    }

    private HttpResponse<String> send(HttpRequest.Builder request) throws Exception {
        return http.send(request.timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private JsonObject awaitJson(HttpRequest.Builder request, Predicate<JsonObject> until) throws Exception {
        JsonObject[] last = {null};
        try {
            waitFor(() -> {
                last[0] = answer(request);
                return last[0] != null && until.test(last[0]);
            }, "condition on " + request.build().uri(), Duration.ofSeconds(30));
        } catch (AssertionError timedOut) {
            throw new AssertionError(timedOut.getMessage() + "; last answer "
                    + (last[0] == null ? "none" : last[0].encodePrettily()), timedOut);
        }
        return last[0];
    }

    /** The JSON body of a 200 answer, null for any other status. */
    private JsonObject answer(HttpRequest.Builder request) {
        try {
            HttpResponse<String> response = send(request);
            return response.statusCode() == 200 ? new JsonObject(response.body()) : null;
        } catch (Exception e) {
            throw new AssertionError("GET " + request.build().uri(), e);
        }
    }

    private static long processesWith(String argument) {
        return ProcessHandle.allProcesses().filter(p -> p.info().arguments()
                .map(args -> Arrays.asList(args).contains(argument)).orElse(false)).count();
    }

}
