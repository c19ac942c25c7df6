package io.rdmamon.agent.daemon;

import io.rdmamon.agent.host.Fixtures;
import io.rdmamon.agent.host.HostReader;
import io.rdmamon.protocol.exposition.MetricSelection;
import io.rdmamon.protocol.net.HostPort;
import io.rdmamon.protocol.telemetry.ProcessTelemetry;
import io.rdmamon.protocol.testing.PromtoolCheck;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.zip.GZIPInputStream;

import static io.rdmamon.protocol.testing.Waits.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The agent's --listen /metrics carries the process's own families beside the node's, in the profile's choice. */
class AgentProcessMetricsTest {
    private static final Duration INTERVAL = Duration.ofMinutes(1);
    /**
     * The standard names a dashboard for any JVM service expects; rdmamon_build_info; Vert.x's own. Not
     * jvm_gc_pause_seconds: Micrometer registers it at the JVM's first collection, which a short test may not see.
     */
    private static final List<String> STANDARD_NAMES = List.of("process_cpu_seconds_total",
            "process_resident_memory_bytes", "process_open_fds", "process_start_time_seconds", "jvm_memory_used_bytes",
            "jvm_threads_live_threads", "jvm_classes_loaded_classes", "system_cpu_usage",
            "vertx_http_server_requests_total", "vertx_pool_queue_pending", "rdmamon_build_info");
    private final HttpClient http = HttpClient.newHttpClient();
    private final Vertx vertx = ProcessTelemetry.process().vertx(AgentDaemon.vertxOptions());

    @AfterEach
    void close() throws Exception {
        await(vertx.close());
    }

    private String scrape(MetricSelection selection, boolean gzip) throws Exception {
        NodeMetricsServer server = new NodeMetricsServer(new HostPort("127.0.0.1", 0), "fx-local", INTERVAL, selection);
        await(vertx.deployVerticle(server));
        server.record(Fixtures.reader("mlx5-roce").read("fx-local"));
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/metrics"));
        if (gzip) {
            request.header("Accept-Encoding", "gzip");
        }
        http.send(request.build(), HttpResponse.BodyHandlers.ofByteArray()); // a request Vert.x has counted
        byte[] body = http.send(request.build(), HttpResponse.BodyHandlers.ofByteArray()).body();
        if (gzip) {
            try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(body))) {
                body = in.readAllBytes();
            }
        }
        return new String(body, StandardCharsets.UTF_8);
    }

    @Test
    void fullHasTheStandardProcessJvmAndVertxNamesThatPromtoolAccepts() throws Exception {
        String text = scrape(MetricSelection.FULL, false);
        for (String name : STANDARD_NAMES) {
            assertTrue(text.contains("\n# TYPE " + name + " "), name + " missing:\n" + text);
        }
        assertTrue(text.contains("rdma_agent_up{node=\"fx-local\"} 1.0\n"), text);
        assertTrue(text.contains("rdmamon_build_info{java=\"" + System.getProperty("java.runtime.version")
                + "\",revision=\""), text);
        if (Files.isExecutable(Path.of("/usr/bin/promtool"))) {
            assertEquals("", PromtoolCheck.check(text));
        }
    }

    /** Gzip: the cached node families and the process's families are two gzip members, read as one stream. */
    @Test
    void gzipCarriesBothParts() throws Exception {
        String text = scrape(MetricSelection.FULL, true);
        assertTrue(text.contains("# TYPE rdma_port_data_transmitted_bytes_total counter\n"), text);
        assertTrue(text.contains("# TYPE process_resident_memory_bytes gauge\n"), text);
    }

    /** The daemon's sample-loop counters are served while it runs and gone once it stops. */
    @Test
    void theDaemonServesItsSampleLoopHealth() throws Exception {
        HostReader reader = Fixtures.reader("mlx5-roce");
        AgentDaemon daemon = new AgentDaemon(AgentDaemonOptions.of("fx-local", Duration.ofMillis(200),
                () -> reader.read("fx-local")).withMetricsListen(new HostPort("127.0.0.1", 0))
                .withMetrics(MetricSelection.parse("minimal")));
        String id = await(vertx.deployVerticle(daemon));
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + daemon.metrics().port()
                + "/metrics")).build();
        String text = http.send(request, HttpResponse.BodyHandlers.ofString()).body();
        assertTrue(text.contains("\n# TYPE rdmamon_agent_sample_overruns_total counter\n"), text);
        assertTrue(text.contains("\nrdmamon_agent_sample_failures_total 0.0\n"), text);
        await(vertx.undeploy(id));
        String after = scrape(MetricSelection.FULL, false);
        assertFalse(after.contains("rdmamon_agent_sample_overruns_total"), after);
    }

    @Test
    void minimalKeepsTheBuildAndTheProcessCostOnly() throws Exception {
        String text = scrape(MetricSelection.parse("minimal"), false);
        for (String kept : List.of("rdmamon_build_info", "process_cpu_seconds_total", "process_resident_memory_bytes",
                "process_open_fds")) {
            assertTrue(text.contains("\n# TYPE " + kept + " "), kept + " missing:\n" + text);
        }
        for (String prefix : List.of("jvm_", "vertx_", "system_")) {
            assertFalse(text.contains("\n" + prefix), prefix + "* served under minimal:\n" + text);
        }
    }
}
