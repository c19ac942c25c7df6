package io.rdmamon.collector.metrics;

import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.rdmamon.protocol.testing.PromtoolCheck;
import io.rdmamon.collector.http.MetricsHandler;
import io.rdmamon.collector.store.NodeStore;
import io.rdmamon.protocol.exposition.DeflatedRuns;
import io.rdmamon.protocol.exposition.ExpositionFormat;
import io.rdmamon.protocol.exposition.ParallelGzipOutputStream;
import io.rdmamon.protocol.model.HostSample;
import io.rdmamon.protocol.model.IbDevice;
import io.rdmamon.protocol.model.IbPort;
import io.rdmamon.protocol.model.SourceStatus;
import io.rdmamon.protocol.testing.FixtureHosts;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.GZIPInputStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** The streamed exposition against the store it renders: freshness, expiry, escaping, formats, concurrency. */
class RdmaMetricsTest {
    private static final long T0 = 1_700_000_000_000L;
    private static final String RCV = "rdma_port_data_received_bytes_total{device=\"mlx5_0\",node=\"%s\",port=\"1\"} ";
    private final AtomicLong now = new AtomicLong(T0);
    private final NodeStore store = new NodeStore(now::get, 3, 10_000, 10, 1000);
    private final RdmaMetrics metrics = new RdmaMetrics(store);

    private String scrape() throws IOException {
        return MetricsHandler.text(metrics, new PrometheusRegistry());
    }

    private void sample(String node, long step) {
        store.connect(node, "1.0", 1000);
        assertEquals(NodeStore.Ingest.APPLIED, store.accept(FixtureHosts.golden(node, T0 + step * 1000, step)));
    }

    @Test
    void aNewSampleOfANodeShowsInTheNextScrape() throws IOException {
        sample("gpu-01", 1);
        sample("gpu-02", 1);
        assertTrue(scrape().contains(RCV.formatted("gpu-01") + "4000000.0\n"));
        sample("gpu-01", 2);
        String second = scrape();
        assertTrue(second.contains(RCV.formatted("gpu-01") + "8000000.0\n"), second);
        assertFalse(second.contains(RCV.formatted("gpu-01") + "4000000.0\n"), "the cached render of the old sample is gone");
        assertTrue(second.contains(RCV.formatted("gpu-02") + "4000000.0\n"), "the unchanged node is still there");
        assertTrue(second.contains("rdma_agent_last_sample_timestamp_seconds{node=\"gpu-01\"} 1.700000002E9\n"), second);
    }

    @Test
    void livenessChangesWithoutANewSample() throws IOException {
        sample("gpu-01", 1);
        assertTrue(scrape().contains("rdma_agent_up{node=\"gpu-01\"} 1.0\n"));
        now.addAndGet(3_001); // past three intervals: stale, same sample
        assertTrue(scrape().contains("rdma_agent_up{node=\"gpu-01\"} 0.0\n"));
    }

    @Test
    void anExpiredNodeLeavesTheExposition() throws IOException {
        sample("gpu-01", 1);
        sample("gpu-02", 1);
        assertTrue(scrape().contains("node=\"gpu-02\""));
        now.addAndGet(5_000);
        store.touch("gpu-01");
        now.addAndGet(6_000); // gpu-02 silent for 11 s > 10 s expiry
        assertEquals(List.of("gpu-02"), store.expire());
        String after = scrape();
        assertFalse(after.contains("node=\"gpu-02\""), after);
        assertTrue(after.contains(RCV.formatted("gpu-01")), after);
        // a node of the same name that reconnects without a sample yet has only rdma_agent_up
        store.connect("gpu-02", "1.0", 1000);
        String reconnected = scrape();
        assertEquals(List.of("rdma_agent_up{node=\"gpu-02\"} 0.0"),
                reconnected.lines().filter(l -> l.contains("node=\"gpu-02\"")).toList());
    }

    @Test
    void oddAttributeValuesAreEscapedAndPromtoolAcceptsThem() throws Exception {
        HostSample fixture = FixtureHosts.golden("odd", T0, 1);
        IbDevice mlx = fixture.devices().get(1);
        IbDevice odd = new IbDevice(mlx.name(), mlx.nodeTypeId(), mlx.nodeType(), mlx.nodeGuid(), mlx.sysImageGuid(),
                "14.\"28\"\\2006\nbeta", mlx.hcaType(), "MT_\\0\"1\"\n", mlx.ports());
        store.connect("odd", "1.0", 1000);
        store.accept(new HostSample("odd", T0, List.of(fixture.devices().get(0), odd), fixture.sources()));
        String text = scrape();
        assertTrue(text.contains("rdma_device_info{board_id=\"MT_\\\\0\\\"1\\\"\\n\",device=\"mlx5_0\","
                + "fw_version=\"14.\\\"28\\\"\\\\2006\\nbeta\",hca_type=\"MT4123\",node=\"odd\","
                + "node_guid=\"0a7f:bc12:45ef:d23b\",node_type=\"CA\"} 1\n"), text);
        assumeTrue(Files.isExecutable(Path.of("/usr/bin/promtool")), "promtool not installed");
        assertEquals("", PromtoolCheck.check(text));
    }

    @Test
    void fiftyNodesPassPromtoolWithEveryFamilyContiguous() throws Exception {
        for (int n = 0; n < 50; n++) {
            sample("node-%02d".formatted(n), 1 + n);
        }
        String text = scrape();
        int perNode = (int) text.lines().filter(l -> l.contains("node=\"node-00\"")).count();
        assertEquals(50L * perNode, text.lines().filter(l -> !l.startsWith("#")).count());
        assertFamiliesContiguousAndUnique(text);
        assumeTrue(Files.isExecutable(Path.of("/usr/bin/promtool")), "promtool not installed");
        assertEquals("", PromtoolCheck.check(text));
    }

    @Test
    void openMetricsHasItsHeadersTotalSuffixesAndOneEofAfterTheRegistryFamilies() throws IOException {
        sample("gpu-01", 1);
        PrometheusRegistry registry = new PrometheusRegistry();
        Counter.builder().name("rdmamon_collector_samples_ingested").help("Samples stored").register(registry).inc();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        MetricsHandler.write(out, ExpositionFormat.OPENMETRICS, metrics, registry);
        String text = out.toString(StandardCharsets.UTF_8);
        assertTrue(text.contains("# TYPE rdma_port_data_received_bytes counter\n"
                + "# HELP rdma_port_data_received_bytes sysfs counters/port_rcv_data x 4 (bytes), as read\n"
                + RCV.formatted("gpu-01") + "4000000.0\n"), text);
        assertTrue(text.contains("# TYPE rdma_device info\n"), text);
        assertTrue(text.contains("rdmamon_collector_samples_ingested_total 1.0\n"), text);
        assertTrue(text.indexOf("rdma_agent_up") < text.indexOf("rdmamon_collector"), "rdma_* families first");
        assertTrue(text.endsWith("# EOF\n"), text);
        assertEquals(1, text.split("# EOF", -1).length - 1);
    }

    @Test
    void collidingCounterNamesKeepOneSeriesAndNeverBreakTheExposition() throws Exception {
        HostSample fixture = FixtureHosts.golden("c", T0, 1);
        IbDevice mlx = fixture.devices().get(1);
        IbPort roce = mlx.ports().get(0);
        Map<String, Long> counters = new LinkedHashMap<>(roce.counters());
        counters.put("port-xmit-wait", 99L); // sanitises to the name of port_xmit_wait (7): the first stays
        counters.put("state_id", 5L);        // rdma_port_state_id is the port state gauge: dropped
        IbPort odd = roce.toBuilder().counters(counters).build();
        IbDevice device = new IbDevice(mlx.name(), mlx.nodeTypeId(), mlx.nodeType(), mlx.nodeGuid(), mlx.sysImageGuid(),
                mlx.fwVersion(), mlx.hcaType(), mlx.boardId(), List.of(odd, mlx.ports().get(1)));
        store.connect("c", "1.0", 1000);
        store.accept(new HostSample("c", T0, List.of(device), List.of(SourceStatus.ok("sysfs", "mlx5_0"))));
        String text = scrape();
        assertEquals(List.of("rdma_port_xmit_wait_total{device=\"mlx5_0\",node=\"c\",port=\"1\"} 7.0"),
                text.lines().filter(l -> l.startsWith("rdma_port_xmit_wait_total{device=\"mlx5_0\",node=\"c\",port=\"1\"}")).toList());
        assertEquals(List.of("rdma_port_state_id{device=\"mlx5_0\",node=\"c\",port=\"1\"} 4.0"),
                text.lines().filter(l -> l.startsWith("rdma_port_state_id{device=\"mlx5_0\",node=\"c\",port=\"1\"}")).toList());
        assumeTrue(Files.isExecutable(Path.of("/usr/bin/promtool")), "promtool not installed");
        assertEquals("", PromtoolCheck.check(text));
    }

    @Test
    void scrapesDuringIngestSeeEachNodeAtOneSample() throws Exception {
        int nodes = 20;
        for (int n = 0; n < nodes; n++) {
            sample("n" + n, 1);
        }
        AtomicBoolean running = new AtomicBoolean(true);
        ExecutorService pool = Executors.newFixedThreadPool(3);
        try {
            Future<?> ingest = pool.submit(() -> {
                for (long step = 2; running.get(); step++) {
                    for (int n = 0; n < nodes; n++) {
                        store.accept(FixtureHosts.golden("n" + n, T0 + step * 1000, step));
                    }
                }
                return null;
            });
            List<Future<Integer>> scrapers = new ArrayList<>();
            for (int s = 0; s < 2; s++) {
                scrapers.add(pool.submit(() -> {
                    int checked = 0;
                    for (int i = 0; i < 40; i++) {
                        String text = scrape();
                        assertFamiliesContiguousAndUnique(text);
                        for (int n = 0; n < nodes; n++) {
                            assertOneSample(text, "n" + n);
                            checked++;
                        }
                    }
                    return checked;
                }));
            }
            for (Future<Integer> scraper : scrapers) {
                assertEquals(40 * nodes, scraper.get(60, TimeUnit.SECONDS));
            }
            running.set(false);
            ingest.get(10, TimeUnit.SECONDS);
        } finally {
            running.set(false);
            pool.shutdownNow();
        }
    }

    /** The timestamp and a traffic counter of {@code node} come from the same sample (step). */
    /**
     * The nodes' new samples rendered in slices on other threads give the very bytes of one thread's rendering, and
     * the other threads did take slices.
     */
    @Test
    void renderingInParallelSlicesGivesTheSameBytesAsOneThread() throws Exception {
        assumeTrue(Runtime.getRuntime().availableProcessors() > 1, "one core: the nodes are rendered in one slice");
        for (int n = 0; n < 200; n++) {
            sample(String.format("gpu-%03d", n), 1 + n % 5);
        }
        ExecutorService pool = Executors.newFixedThreadPool(2);
        Set<String> renderingThreads = ConcurrentHashMap.newKeySet();
        try {
            ByteArrayOutputStream parallel = new ByteArrayOutputStream();
            MetricsHandler.write(parallel, ExpositionFormat.OPENMETRICS, metrics, new PrometheusRegistry(), null, task ->
                    pool.execute(() -> {
                        renderingThreads.add(Thread.currentThread().getName());
                        task.run();
                    }));
            ByteArrayOutputStream oneThread = new ByteArrayOutputStream();
            MetricsHandler.write(oneThread, ExpositionFormat.OPENMETRICS, new RdmaMetrics(store), new PrometheusRegistry());
            assertFalse(renderingThreads.isEmpty(), "no slice was rendered on the pool");
            assertEquals(oneThread.toString(StandardCharsets.UTF_8), parallel.toString(StandardCharsets.UTF_8));
        } finally {
            pool.shutdownNow();
        }
    }

    /** The exposition as Prometheus asks for it (OpenMetrics, gzip), deflated on this thread, read back. */
    private String gzipScrape() throws IOException {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        try (OutputStream gzip = new ParallelGzipOutputStream(body, Runnable::run, 4)) {
            MetricsHandler.write(gzip, ExpositionFormat.OPENMETRICS, metrics, new PrometheusRegistry());
        }
        try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(body.toByteArray()))) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    private String openMetricsScrape() throws IOException {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        MetricsHandler.write(body, ExpositionFormat.OPENMETRICS, metrics, new PrometheusRegistry());
        return body.toString(StandardCharsets.UTF_8);
    }

    /**
     * A gzip body reuses the deflated runs of the body before it where the nodes' text of a family did not change, and
     * always reads back as the plain exposition: after one node's new sample, with none, and after a node joined
     * (the runs' bounds shift).
     */
    @Test
    void aGzipBodyReusesTheRunsOfTheLastWhereTheTextIsTheSameAndReadsAsThePlainText() throws Exception {
        for (int n = 0; n < 300; n += 2) {
            sample(String.format("gpu-%03d", n), 1);
        }
        DeflatedRuns runs = metrics.deflatedRuns();
        assertEquals(openMetricsScrape(), gzipScrape());
        assertEquals(0, runs.reusedBytes(), "nothing to reuse in the first body");
        long total = runs.deflatedBytes();
        assertTrue(total > 100_000, "the node series went in runs: " + total);

        sample("gpu-008", 2);
        String afterOne = gzipScrape();
        assertEquals(openMetricsScrape(), afterOne);
        assertTrue(afterOne.contains(RCV.formatted("gpu-008") + "8000000.0\n"), "the new sample's text, not the old run's");
        assertTrue(runs.reusedBytes() > 0 && runs.deflatedBytes() > 0, runs.reusedBytes() + " / " + runs.deflatedBytes());
        long afterOneTotal = runs.reusedBytes() + runs.deflatedBytes();
        assertTrue(Math.abs(afterOneTotal - total) < total / 100, "every node series in a run: " + afterOneTotal
                + " bytes, " + total + " before the new sample");

        assertEquals(openMetricsScrape(), gzipScrape());
        assertEquals(0, runs.deflatedBytes(), "no new sample: every run reused");

        sample("gpu-101", 1);
        assertEquals(openMetricsScrape(), gzipScrape());
        assertTrue(runs.deflatedBytes() > 0);
    }

    private static void assertOneSample(String text, String node) {
        Matcher ts = Pattern.compile("rdma_agent_last_sample_timestamp_seconds\\{node=\"" + node + "\"} (\\S+)\n").matcher(text);
        Matcher rcv = Pattern.compile(Pattern.quote(RCV.formatted(node)) + "(\\S+)\n").matcher(text);
        assertTrue(ts.find() && rcv.find(), node);
        long step = Math.round(Double.parseDouble(ts.group(1)) - T0 / 1000.0);
        assertEquals(4_000_000.0 * step, Double.parseDouble(rcv.group(1)), node);
        assertFalse(ts.find() || rcv.find(), "one series per node: " + node);
    }

    /** HELP/TYPE once per family, all of a family's samples right after them, no series twice. */
    static void assertFamiliesContiguousAndUnique(String text) {
        Set<String> families = new HashSet<>();
        Set<String> series = new HashSet<>();
        String current = null;
        for (String line : text.lines().toList()) {
            if (line.startsWith("# TYPE ")) {
                current = line.split(" ")[2];
                assertTrue(families.add(current), "family twice: " + current);
            } else if (!line.startsWith("#")) {
                String name = line.substring(0, line.indexOf(line.contains("{") ? '{' : ' '));
                assertEquals(current, name, "sample outside its family: " + line);
                assertTrue(series.add(line.substring(0, line.lastIndexOf(' '))), "series twice: " + line);
            }
        }
    }
}
