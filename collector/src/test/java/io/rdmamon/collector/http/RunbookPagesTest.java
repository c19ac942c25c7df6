package io.rdmamon.collector.http;

import io.rdmamon.collector.Collector;
import io.rdmamon.collector.CollectorConfig;
import io.rdmamon.collector.auth.Role;
import io.rdmamon.collector.auth.TokenEntry;
import io.rdmamon.collector.model.Rule;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static io.rdmamon.protocol.testing.Waits.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every diagnosis' runbook link ({@link Rule#runbookUrl()}) resolves on a running collector that requires tokens
 * for its API: the pages of docs/runbooks are packaged into the jar and served at /runbooks/&lt;rule&gt;.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@ExtendWith(VertxExtension.class)
class RunbookPagesTest {
    private final HttpClient http = HttpClient.newHttpClient();
    private Vertx vertx;
    private Collector.Running collector;

    @BeforeAll
    void start(Vertx vertx) throws Exception {
        this.vertx = vertx;
        collector = await(Collector.start(vertx, CollectorConfig.defaults().withListen("127.0.0.1:0")
                .withTokens(List.of(new TokenEntry(Role.VIEWER, "viewer-secret", null)))));
    }

    @Test
    void everyRulesRunbookLinkResolvesToItsPageWithoutAToken() throws Exception {
        for (Rule rule : Rule.values()) {
            HttpResponse<String> page = get(rule.runbookUrl(), "text/html");
            assertEquals(200, page.statusCode(), rule.runbookUrl());
            assertEquals("text/html; charset=utf-8", page.headers().firstValue("Content-Type").orElse(""));
            assertTrue(page.body().contains("<title>" + rule.id() + " · rdmamon runbook</title>"), page.body());
            assertTrue(page.body().contains("<h1>" + rule.id() + "</h1>"), page.body());
        }
    }

    @Test
    void aPageRendersTheMarkdownItIsMadeOf() throws Exception {
        String body = get("/runbooks/link_down", "text/html").body();
        assertTrue(body.contains("<h2>How to confirm</h2>"), body);
        assertTrue(body.contains("<li><code>dmesg | grep -i DEV</code> for firmware or driver errors.</li>"), body);
        // a wrapped list item stays one item
        assertTrue(body.contains("<li>RoCE: <code>ip link show IF</code> (carrier, admin state), <code>ethtool IF</code>"
                + " (Link detected, speed), <code>mlxlink -d DEV</code> for cable and training status.</li>"), body);
        // docs/diagnosis.md is not served: its link keeps only the text
        assertTrue(body.contains("(thresholds: docs/diagnosis.md)"), body);
        assertFalse(body.contains("../diagnosis.md"), body);
    }

    @Test
    void aClientAskingForMarkdownGetsTheFileAsWritten() throws Exception {
        HttpResponse<String> page = get("/runbooks/pfc_pause_storm", "text/markdown");
        assertEquals(200, page.statusCode());
        assertEquals("text/markdown; charset=utf-8", page.headers().firstValue("Content-Type").orElse(""));
        assertEquals(Files.readString(Path.of("..", "docs", "runbooks", "pfc_pause_storm.md")), page.body());
    }

    @Test
    void anUnknownRuleIsA404NamingTheValidOnes() throws Exception {
        HttpResponse<String> page = get("/runbooks/no_such_rule", "text/html");
        assertEquals(404, page.statusCode());
        assertEquals("application/json", page.headers().firstValue("Content-Type").orElse(""));
        assertEquals("no runbook: unknown rule 'no_such_rule'; valid: " + Rule.validIds(),
                new JsonObject(page.body()).getString("error"));
    }

    private HttpResponse<String> get(String path, String accept) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + collector.port() + path))
                .header("Accept", accept).build(), HttpResponse.BodyHandlers.ofString());
    }
}
