package io.rdmamon.collector;

import io.rdmamon.protocol.exposition.MetricSelection;
import io.rdmamon.protocol.telemetry.ProcessTelemetry;
import io.rdmamon.protocol.testing.PromtoolCheck;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

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

/** The collector's /metrics carries the process's own families (Micrometer) beside rdma_* and rdmamon_collector_*. */
class CollectorProcessMetricsTest {
    private final HttpClient http = HttpClient.newHttpClient();
    private final Vertx vertx = ProcessTelemetry.process().vertx(new VertxOptions());

    @AfterEach
    void close() throws Exception {
        await(vertx.close());
    }

    private String scrape(CollectorConfig config) throws Exception {
        Collector.Running collector = await(Collector.start(vertx, config.withListen("127.0.0.1:0")));
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + collector.port() + "/metrics"))
                .build();
        http.send(request, HttpResponse.BodyHandlers.discarding()); // one request Vert.x has counted
        return http.send(request, HttpResponse.BodyHandlers.ofString()).body();
    }

    @Test
    void servesTheStandardProcessJvmAndVertxNamesThatPromtoolAccepts() throws Exception {
        String text = scrape(CollectorConfig.defaults());
        for (String name : List.of("process_cpu_seconds_total", "process_resident_memory_bytes", "process_open_fds",
                "jvm_memory_used_bytes", "jvm_memory_max_bytes", "jvm_threads_live_threads",
                "vertx_http_server_requests_total", "vertx_http_server_active_connections", "vertx_pool_queue_pending",
                "rdmamon_build_info", "rdmamon_collector_connected_agents")) {
            assertTrue(text.contains("\n# TYPE " + name + " "), name + " missing:\n" + text);
        }
        assertFalse(text.contains("path=\""), "no per-path HTTP series:\n" + text);
        // every process family the standard profile keeps (the rdmamon health dashboard reads them) is one served
        for (String family : MetricSelection.families(MetricSelection.Profile.STANDARD)) {
            // jvm_gc_pause_seconds comes with the JVM's first collection, which a short test may not see
            if (family.matches("(jvm|process|vertx)_.*|rdmamon_build_info") && !family.equals("jvm_gc_pause_seconds")) {
                assertTrue(text.contains("\n# TYPE " + family + " "), family + " missing:\n" + text);
            }
        }
        if (Files.isExecutable(Path.of("/usr/bin/promtool"))) {
            assertEquals("", PromtoolCheck.check(text));
        }
    }

    @Test
    void minimalKeepsTheBuildAndTheProcessCostOnly() throws Exception {
        String text = scrape(CollectorConfig.defaults().withMetrics("minimal", "metrics"));
        assertTrue(text.contains("\n# TYPE process_resident_memory_bytes gauge\n"), text);
        assertTrue(text.contains("\n# TYPE rdmamon_build_info gauge\n"), text);
        assertFalse(text.contains("\njvm_") || text.contains("\nvertx_"), text);
    }
}
