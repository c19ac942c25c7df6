package io.rdmamon.collector.http;

import io.prometheus.metrics.expositionformats.ExpositionFormatWriter;
import io.prometheus.metrics.expositionformats.ExpositionFormats;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.rdmamon.collector.metrics.RdmaMetrics;
import io.rdmamon.collector.store.NodeStore;
import io.rdmamon.protocol.exposition.ExpositionFormat;
import io.rdmamon.protocol.testing.FixtureHosts;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.ext.web.Router;
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
import java.util.zip.GZIPInputStream;

import static io.rdmamon.protocol.testing.Waits.await;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code /metrics} over loopback: a body of many chunks, gzip only when accepted, the Accept negotiation. */
@ExtendWith(VertxExtension.class)
class MetricsHandlerTest {
    /**
     * The store's clock stands still at the samples' time: with a moving clock, a render slower than the 3 s staleness
     * window (a loaded machine) turned {@code rdma_agent_up} to 0 between the two renders this test compares.
     */
    private final long now = System.currentTimeMillis();
    private final NodeStore store = new NodeStore(() -> now, 3, 600_000, 10, 1000);
    private final RdmaMetrics rdma = new RdmaMetrics(store);
    private final PrometheusRegistry registry = new PrometheusRegistry();
    private final HttpClient http = HttpClient.newHttpClient();
    private Vertx vertx;
    private HttpServer server;

    @BeforeEach
    void start(Vertx vertx) throws Exception {
        for (int n = 0; n < 400; n++) { // about 1 MB of text: several 256 KB chunks
            store.connect("node-" + n, "1.0", 1000);
            store.accept(FixtureHosts.golden("node-" + n, now, n));
        }
        this.vertx = vertx;
        Router router = Router.router(vertx);
        router.get("/metrics").handler(new MetricsHandler(rdma, registry, null));
        server = await(vertx.createHttpServer().requestHandler(router).listen(0, "127.0.0.1"));
    }

    /** The exposition without the handler's own render histogram, which each scrape moves. */
    private static String withoutRenderTimes(String exposition) {
        return exposition.replaceAll("(?m)^.*rdmamon_collector_metrics_render_seconds.*\n", "");
    }

    private HttpResponse<byte[]> get(String accept, String acceptEncoding) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.actualPort() + "/metrics"));
        if (accept != null) {
            request.header("Accept", accept);
        }
        if (acceptEncoding != null) {
            request.header("Accept-Encoding", acceptEncoding);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
    }

    @Test
    void aLargeBodyStreamsWholeAndGzipDecodesToTheSameText() throws Exception {
        String expected = withoutRenderTimes(MetricsHandler.text(rdma, registry));
        assertTrue(expected.length() > 1_000_000, "the body spans several chunks: " + expected.length());
        HttpResponse<byte[]> plain = get(null, null);
        assertEquals(200, plain.statusCode());
        assertFalse(plain.headers().firstValue("Content-Encoding").isPresent());
        assertEquals(expected, withoutRenderTimes(new String(plain.body(), StandardCharsets.UTF_8)));

        HttpResponse<byte[]> gzip = get(null, "gzip, deflate");
        assertEquals("gzip", gzip.headers().firstValue("Content-Encoding").orElseThrow());
        assertTrue(gzip.body().length * 5 < expected.length(), "compressed: " + gzip.body().length);
        assertEquals(expected, withoutRenderTimes(gunzip(gzip.body())));
    }

    @Test
    void prometheusAcceptHeaderGetsOpenMetrics() throws Exception {
        HttpResponse<byte[]> r = get("application/openmetrics-text;version=1.0.0,application/openmetrics-text;"
                + "version=0.0.1;q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1", "gzip");
        assertTrue(r.headers().firstValue("Content-Type").orElseThrow().startsWith("application/openmetrics-text"));
        assertTrue(gunzip(r.body()).endsWith("# EOF\n"));
    }

    /** The agent's own /metrics ends and labels its body from ExpositionFormat alone: it must say what the library says. */
    @Test
    void theSharedFormatsEndAndAreLabelledAsTheClientLibrarysWriters() throws IOException {
        for (ExpositionFormat format : ExpositionFormat.values()) {
            ExpositionFormatWriter writer = format == ExpositionFormat.OPENMETRICS
                    ? ExpositionFormats.init().getOpenMetricsTextFormatWriter()
                    : ExpositionFormats.init().getPrometheusTextFormatWriter();
            assertEquals(writer.getContentType(), format.contentType(), format.name());
            ByteArrayOutputStream empty = new ByteArrayOutputStream();
            writer.write(empty, new PrometheusRegistry().scrape());
            assertArrayEquals(empty.toByteArray(), format.end(), format.name());
        }
    }

    private static String gunzip(byte[] body) throws IOException {
        try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(body))) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

}
