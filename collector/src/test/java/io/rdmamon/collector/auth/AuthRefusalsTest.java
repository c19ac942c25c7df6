package io.rdmamon.collector.auth;

import io.rdmamon.collector.Collector;
import io.rdmamon.collector.CollectorConfig;
import io.rdmamon.collector.HttpLimits;
import io.rdmamon.collector.LogCapture;
import io.rdmamon.collector.SeriesValue;
import io.rdmamon.protocol.wire.WireFormat;
import io.vertx.core.Vertx;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;

import static io.rdmamon.protocol.testing.Waits.await;
import static io.rdmamon.protocol.testing.Waits.waitFor;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A flood of refused requests on a real collector: a few log lines, every refusal counted. */
@ExtendWith(VertxExtension.class)
class AuthRefusalsTest {
    @Test
    void aFloodOfRefusedAgentStreamsLogsTheFirstAndOneSummaryPerWindow(Vertx vertx) throws Exception {
        Collector.Running collector = await(Collector.start(vertx, CollectorConfig.defaults().withListen("127.0.0.1:0")
                .withTokens(List.of(new TokenEntry(Role.AGENT, "agent-secret", null),
                        new TokenEntry(Role.VIEWER, "viewer-secret", null)))
                // a window far longer than 400 refused requests take on a loaded machine (they took over 2 s)
                .withHttp(HttpLimits.defaults().withRefusalLogWindow(Duration.ofSeconds(15)))));
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        try (LogCapture log = LogCapture.of("io.rdmamon")) {
            for (int i = 0; i < 400; i++) {
                HttpResponse<String> response = client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
                                + collector.port() + WireFormat.STREAM_PATH)).header("Authorization", "Bearer stale-token").build(),
                        HttpResponse.BodyHandlers.ofString());
                assertEquals(401, response.statusCode());
            }
            assertEquals(400.0, SeriesValue.of(collector.registry(), "rdmamon_collector_auth_failures_total"));
            assertEquals(400.0, SeriesValue.of(collector.registry(),
                    "rdmamon_collector_requests_refused_total{reason=\"missing_or_unknown_token\"}"));
            List<String> first = log.containing("refused GET " + WireFormat.STREAM_PATH);
            assertEquals(1, first.size(), first.toString());
            assertTrue(first.get(0).startsWith("refused GET /api/agent/stream from 127.0.0.1: missing or unknown bearer"
                    + " token (401)"), first.get(0));
            assertTrue(!first.get(0).contains("stale-token"), "never the token");
            waitFor(() -> !log.containing("more refused requests").isEmpty(), "the window's summary line",
                    Duration.ofSeconds(30));
            assertEquals(List.of("399 more refused requests (missing_or_unknown_token) from 127.0.0.1 in the last 15 s"),
                    log.containing("more refused requests"));
            assertEquals(2, log.containing("refused").size(), "nothing else about the refusals");
        }
    }
}
