package io.rdmamon.agent.daemon;

import io.rdmamon.agent.host.Fixtures;
import io.rdmamon.protocol.exposition.ExpositionFormat;
import io.rdmamon.protocol.model.HostSample;
import io.rdmamon.protocol.net.HostPort;
import io.vertx.core.Vertx;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.zip.GZIPInputStream;

import static io.rdmamon.protocol.testing.Waits.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The agent's own /metrics: the node's series, the collector's negotiation (OpenMetrics, gzip), liveness. */
@ExtendWith(VertxExtension.class)
class NodeMetricsServerTest {
    /**
     * Long enough that a loaded machine's pauses never age the sample past the staleness window (three intervals) in
     * the middle of a test on the real clock; the window itself is tested on a stepped clock.
     */
    private static final Duration INTERVAL = Duration.ofMinutes(1);
    private final HttpClient http = HttpClient.newHttpClient();
    private Vertx vertx;
    private NodeMetricsServer server;

    @BeforeEach
    void start(Vertx vertx) throws Exception {
        this.vertx = vertx;
        server = new NodeMetricsServer(new HostPort("127.0.0.1", 0), "fx-local", INTERVAL);
        await(vertx.deployVerticle(server));
    }

    private HttpResponse<byte[]> get(String path, String... headers) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path));
        if (headers.length > 0) {
            request.headers(headers);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
    }

    @Test
    void servesTheNodesSeriesAsPrometheusTextOrGzippedOpenMetrics() throws Exception {
        HostSample sample = Fixtures.reader("mlx5-roce").read("fx-local");
        server.record(sample);
        HttpResponse<byte[]> text = get("/metrics");
        assertEquals(200, text.statusCode());
        assertEquals(ExpositionFormat.PROMETHEUS_TEXT.contentType(), text.headers().firstValue("Content-Type").orElseThrow());
        String body = new String(text.body(), StandardCharsets.UTF_8);
        assertTrue(body.contains("# TYPE rdma_port_data_transmitted_bytes_total counter\n"), body);
        assertTrue(body.contains("rdma_agent_up{node=\"fx-local\"} 1.0\n"), body);
        assertTrue(body.contains("rdma_device_info{board_id="), body);

        HttpResponse<byte[]> openMetrics = get("/metrics", "Accept", "application/openmetrics-text;version=1.0.0",
                "Accept-Encoding", "gzip");
        assertEquals("gzip", openMetrics.headers().firstValue("Content-Encoding").orElseThrow());
        String unzipped;
        try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(openMetrics.body()))) {
            unzipped = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        assertTrue(unzipped.contains("# TYPE rdma_port_data_transmitted_bytes counter\n"), unzipped);
        assertTrue(unzipped.endsWith("# EOF\n"), unzipped);
    }

    @Test
    void healthzAnswersAndOtherPathsAreJsonErrors() throws Exception {
        assertEquals("{\"status\":\"ok\",\"node\":\"fx-local\"}", new String(get("/healthz").body(), StandardCharsets.UTF_8));
        HttpResponse<byte[]> missing = get("/api/nodes");
        assertEquals(404, missing.statusCode());
        assertTrue(new String(missing.body(), StandardCharsets.UTF_8).startsWith("{\"error\":"));
    }

    /** Rendered once per sample: scrapes between two samples get the same bytes without a render; the next sample changes them. */
    @Test
    void scrapesBetweenSamplesAnswerTheCachedBytesAndANewSampleChangesThem() throws Exception {
        HostSample sample = Fixtures.reader("mlx5-roce").read("fx-local");
        server.record(sample);
        String[] gzipOpenMetrics = {"Accept", "application/openmetrics-text;version=1.0.0", "Accept-Encoding", "gzip"};
        byte[] first = get("/metrics", gzipOpenMetrics).body();
        long built = server.bodiesBuilt();
        byte[] second = get("/metrics", gzipOpenMetrics).body();

        // the node's families are the cached bytes; the process's own (CPU, heap) move on their own
        assertEquals(nodeFamilies(gunzip(first)), nodeFamilies(gunzip(second)));
        assertEquals(built, server.bodiesBuilt(), "the second scrape rendered nothing");
        assertTrue(gunzip(first).contains("rdma_source_success{"), "the first sample has sources");

        HostSample next = new HostSample("fx-local", sample.timestampMillis() + 1000, sample.devices(), List.of());
        server.record(next);
        assertEquals(built + 1, server.bodiesBuilt(), "the way asked for before is built with the sample, not by the scrape");
        byte[] third = get("/metrics", gzipOpenMetrics).body();
        assertFalse(nodeFamilies(gunzip(first)).equals(nodeFamilies(gunzip(third))),
                "the new sample (no sources now) changed the body");
        assertEquals(built + 1, server.bodiesBuilt());
        String text = gunzip(third);
        assertFalse(text.contains("rdma_source_success{"), "rendered from the new sample");
        assertTrue(text.contains("rdma_agent_up{node=\"fx-local\"} 1.0\n"), text);
    }

    /** A sample nobody scrapes is not rendered: the next scrape renders the newest one, once. */
    @Test
    void samplesNobodyScrapesAreNotRendered() throws Exception {
        HostSample sample = Fixtures.reader("mlx5-roce").read("fx-local");
        NodeExposition exposition = new NodeExposition("fx-local", INTERVAL, System::currentTimeMillis);
        for (int i = 0; i < 5; i++) {
            exposition.record(new HostSample("fx-local", sample.timestampMillis() + i, sample.devices(), sample.sources()));
        }
        assertEquals(0, exposition.bodiesBuilt(), "no scraper: nothing built");
        assertNull(exposition.cachedBody(NodeExposition.Variant.TEXT), "nothing cached for the first scrape");
        String text = new String(exposition.body(NodeExposition.Variant.TEXT), StandardCharsets.UTF_8);
        assertTrue(text.contains("rdma_source_success{"), text);
        assertEquals(1, exposition.bodiesBuilt());
        assertNotNull(exposition.cachedBody(NodeExposition.Variant.TEXT), "kept for the next scrape of the same sample");
    }

    /** The node's {@code rdma_*} lines of an exposition, without the process's own. */
    private static List<String> nodeFamilies(String exposition) {
        return exposition.lines().filter(l -> l.replaceFirst("^# [A-Z]+ ", "").startsWith("rdma_")).toList();
    }

    private static String gunzip(byte[] body) throws IOException {
        try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(body))) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    /** The collector's staleness rule: up while the last sample is at most three intervals old; older samples ignored. */
    @Test
    void agentUpFollowsTheLastSamplesAgeAndAnOlderSampleChangesNothing() throws Exception {
        AtomicLong now = new AtomicLong(1_000_000);
        NodeExposition exposition = new NodeExposition("n1", INTERVAL, now::get);
        assertEquals("# HELP rdma_agent_up 1 when the agent's last sample arrived within the staleness window\n"
                + "# TYPE rdma_agent_up gauge\nrdma_agent_up{node=\"n1\"} 0.0\n", text(exposition));
        HostSample sample = Fixtures.reader("mlx5-roce").read("n1");
        exposition.record(sample);
        now.addAndGet(3 * INTERVAL.toMillis());
        assertTrue(text(exposition).contains("rdma_agent_up{node=\"n1\"} 1.0\n"));
        exposition.record(new HostSample("n1", sample.timestampMillis() - 1, sample.devices(), sample.sources()));
        now.addAndGet(1);
        assertTrue(text(exposition).contains("rdma_agent_up{node=\"n1\"} 0.0\n"), "the older sample did not refresh it");
    }

    /** {@code --metrics}: the agent's own /metrics leaves out what the selection does not include. */
    @Test
    void aMetricsSelectionLeavesFamiliesOut() throws Exception {
        HostSample sample = Fixtures.reader("mlx5-roce").read("n1");
        NodeExposition full = new NodeExposition("n1", INTERVAL, System::currentTimeMillis);
        NodeExposition minimal = new NodeExposition("n1", INTERVAL, System::currentTimeMillis,
                io.rdmamon.protocol.exposition.MetricSelection.parse("minimal,-rdma_agent_up"));
        full.record(sample);
        minimal.record(sample);
        String all = text(full);
        String some = text(minimal);
        assertTrue(all.contains("\nrdma_gid_info{") && all.contains("\nrdma_agent_up{"), all);
        assertTrue(some.contains("\nrdma_port_data_received_bytes_total{") && some.contains("\nrdma_port_state_id{"), some);
        assertTrue(!some.contains("rdma_gid_info") && !some.contains("rdma_agent_up")
                && !some.contains("rdma_device_info"), some);
    }

    private static String text(NodeExposition exposition) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        exposition.write(out, ExpositionFormat.PROMETHEUS_TEXT);
        return out.toString(StandardCharsets.UTF_8);
    }
}
