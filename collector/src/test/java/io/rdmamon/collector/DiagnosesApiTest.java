package io.rdmamon.collector;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rdmamon.collector.auth.Role;
import io.rdmamon.collector.auth.TokenEntry;
import io.rdmamon.protocol.testing.FixtureHosts;
import io.rdmamon.protocol.wire.SampleEncoder;
import io.rdmamon.protocol.testing.PromtoolCheck;
import io.vertx.core.Vertx;
import io.vertx.core.http.WebSocket;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static io.rdmamon.protocol.testing.Waits.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * {@code /api/diagnoses}, {@code rdma_diagnosis_active} and the live {@code diagnoses} event of a collector
 * fed three samples of the fixture host over the real ingest: its InfiniBand port is DOWN (link_down,
 * critical, at once) and its eRDMA netdev's ethtool source fails (agent_stale, warning, after 3 samples).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@ExtendWith(VertxExtension.class)
class DiagnosesApiTest {
    private static final String AGENT_TOKEN = "agent-secret";
    private static final String VIEWER_TOKEN = "viewer-secret";
    private static final ObjectMapper JSON = new ObjectMapper();
    private final HttpClient http = HttpClient.newHttpClient();
    private Vertx vertx;
    private Collector.Running collector;
    private WebSocket agent;

    @BeforeAll
    void start(Vertx vertx) throws Exception {
        this.vertx = vertx;
        collector = await(Collector.start(vertx, CollectorConfig.defaults().withListen("127.0.0.1:0").withTokens(List.of(
                new TokenEntry(Role.AGENT, AGENT_TOKEN, null), new TokenEntry(Role.VIEWER, VIEWER_TOKEN, null)))));
        RawAgent stream = new RawAgent(vertx.createWebSocketClient(), collector.port(), AGENT_TOKEN);
        agent = stream.ws;
        SampleEncoder encoder = new SampleEncoder("gpu-01", "test", 1000);
        long now = System.currentTimeMillis();
        for (int seq = 1; seq <= 3; seq++) {
            stream.sample(encoder, FixtureHosts.golden("gpu-01", now - 3000 + seq * 1000L, seq), seq);
        }
    }

    @AfterAll
    void stop() throws Exception {
        // the agent leaves first: a server closing under an open WebSocket waits for the close handshake,
        // which the client side of this same, closing Vert.x may answer only after its 10 s closing timeout
        await(agent.close());
    }

    @Test
    void listsCriticalFirstWithEvidenceAndRunbook() throws Exception {
        JsonNode body = JSON.readTree(get("/api/diagnoses", VIEWER_TOKEN).body());
        JsonNode list = body.get("diagnoses");
        assertEquals(2, list.size(), body.toString());
        assertTrue(body.get("ts").asLong() > 0);

        JsonNode down = list.get(0);
        assertEquals("link_down", down.get("rule").asText());
        assertEquals("critical", down.get("severity").asText());
        assertEquals("port", down.get("scope").asText());
        assertEquals("gpu-01", down.get("node").asText());
        assertEquals("mlx5_0", down.get("device").asText());
        assertEquals(2, down.get("port").asInt());
        assertEquals("state 1: DOWN, phys_state 3: Disabled", down.get("evidence").asText());
        assertEquals(1.0, down.get("values").get("stateId").asDouble());
        assertEquals("docs/runbooks/link_down.md", down.get("runbookPath").asText());
        assertTrue(down.get("runbook").asText().contains("cable"), down.get("runbook").asText());
        assertEquals(java.time.Instant.ofEpochMilli(down.get("sinceMillis").asLong()).toString(), down.get("since").asText());
        assertTrue(Files.isRegularFile(Path.of("..").resolve(down.get("runbookPath").asText())), "the runbook page exists");
        // the link is relative to the collector, which serves the page itself, without a token
        assertEquals("/runbooks/link_down", down.get("runbookUrl").asText());
        HttpResponse<String> page = get(down.get("runbookUrl").asText(), null);
        assertEquals(200, page.statusCode());
        assertTrue(page.body().contains("<h1>link_down</h1>"), page.body());

        JsonNode stale = list.get(1);
        assertEquals("agent_stale", stale.get("rule").asText());
        assertEquals("node", stale.get("scope").asText());
        assertFalse(stale.has("device") || stale.has("port"), "a node-level diagnosis has no device and port");
        assertTrue(stale.get("evidence").asText().contains("ethtool eth0 failed: ioctl SIOCETHTOOL"),
                stale.get("evidence").asText());
    }

    @Test
    void filtersByNodeRuleAndSeverity() throws Exception {
        assertEquals(List.of("link_down"), rules("/api/diagnoses?rule=link_down"));
        assertEquals(List.of("agent_stale"), rules("/api/diagnoses?severity=warning"));
        assertEquals(List.of("link_down", "agent_stale"), rules("/api/diagnoses?node=gpu-01"));
        assertEquals(List.of(), rules("/api/diagnoses?node=gpu-02"));
        assertEquals(List.of(), rules("/api/diagnoses?rule=link_down&severity=warning"));
    }

    @Test
    void unknownRuleOrSeverityIsA400NamingIt() throws Exception {
        HttpResponse<String> rule = get("/api/diagnoses?rule=link_flap", VIEWER_TOKEN);
        assertEquals(400, rule.statusCode());
        assertTrue(JSON.readTree(rule.body()).get("error").asText().startsWith("unknown rule 'link_flap'; valid: "
                + "roce_traffic_outside_lossless_priority, "), rule.body());
        HttpResponse<String> severity = get("/api/diagnoses?severity=major", VIEWER_TOKEN);
        assertEquals(400, severity.statusCode());
        assertEquals("unknown severity 'major'; valid: critical, warning", JSON.readTree(severity.body()).get("error").asText());
    }

    @Test
    void needsTheViewerToken() throws Exception {
        assertEquals(401, get("/api/diagnoses", null).statusCode());
        assertEquals(401, get("/api/diagnoses", "guess").statusCode());
        assertEquals(403, get("/api/diagnoses", AGENT_TOKEN).statusCode(), "a known token of a role that may not read");
    }

    @Test
    void exposedAsRdmaDiagnosisActive() throws Exception {
        String metrics = get("/metrics", VIEWER_TOKEN).body();
        assertTrue(metrics.contains("rdma_diagnosis_active{device=\"mlx5_0\",node=\"gpu-01\",port=\"2\",rule=\"link_down\","
                + "severity=\"critical\"} 1.0"), metrics);
        assertTrue(metrics.contains("rdma_diagnosis_active{device=\"\",node=\"gpu-01\",port=\"\",rule=\"agent_stale\","
                + "severity=\"warning\"} 1.0"), metrics);
        assertEquals(2, metrics.lines().filter(l -> l.startsWith("rdma_diagnosis_active{")).count());
        assumeTrue(Files.isExecutable(Path.of("/usr/bin/promtool")), "promtool not installed at /usr/bin/promtool");
        assertEquals("", PromtoolCheck.check(metrics));
    }

    @Test
    void liveFeedSendsTheDiagnosesAfterTheHello() throws Exception {
        HttpRequest request = HttpRequest.newBuilder(URI.create(base() + "/api/live"))
                .header("Authorization", "Bearer " + VIEWER_TOKEN).build();
        HttpResponse<InputStream> response = http.send(request, HttpResponse.BodyHandlers.ofInputStream());
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(response.body(), StandardCharsets.UTF_8))) {
            List<String> events = new ArrayList<>();
            String line;
            String event = null;
            while ((line = lines.readLine()) != null) {
                if (line.startsWith("event: ")) {
                    event = line.substring(7);
                    events.add(event);
                } else if (line.startsWith("data: ") && "diagnoses".equals(event)) {
                    JsonNode data = JSON.readTree(line.substring(6));
                    assertEquals(List.of("hello", "diagnoses"), events);
                    assertEquals(2, data.get("total").asInt());
                    assertEquals("link_down", data.get("diagnoses").get(0).get("rule").asText());
                    assertFalse(data.get("diagnoses").get(0).has("runbook"), "runbooks go once per rule");
                    assertEquals("docs/runbooks/agent_stale.md", data.get("runbooks").get("agent_stale").get("runbookPath").asText());
                    return;
                }
            }
        }
        throw new AssertionError("the stream ended without a diagnoses event");
    }

    private List<String> rules(String path) throws Exception {
        HttpResponse<String> response = get(path, VIEWER_TOKEN);
        assertEquals(200, response.statusCode(), response.body());
        List<String> rules = new ArrayList<>();
        JSON.readTree(response.body()).get("diagnoses").forEach(d -> rules.add(d.get("rule").asText()));
        return rules;
    }

    private HttpResponse<String> get(String path, String token) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base() + path));
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private String base() {
        return "http://127.0.0.1:" + collector.port();
    }
}
