package io.rdmamon.cli.it;

import io.rdmamon.protocol.testing.LoopbackPorts;
import io.rdmamon.protocol.testing.Slow;
import com.fasterxml.jackson.databind.JsonNode;
import io.rdmamon.collector.Collector;
import io.rdmamon.collector.CollectorConfig;
import io.rdmamon.protocol.testing.FixtureHosts;
import io.rdmamon.protocol.testing.Waits;
import io.vertx.core.Vertx;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * End to end with real parts: agents as separate processes (the shaded jar) reading fixture host
 * roots, the collector, and the real Debian {@code prometheus} scraping it. The values read back
 * through Prometheus's HTTP API must equal the fixture files (data counters ×4, per-priority
 * labels, info series); a device that vanishes from a host root mid-run loses only its own series.
 */
@Slow
@ExtendWith(VertxExtension.class)
class PrometheusEndToEndIT {
    private static final Path FIXTURES = Path.of("..", "agent", "src", "test", "fixtures");
    private static final Duration WAIT = Duration.ofSeconds(45);
    private static final Duration POLL_INTERVAL = Duration.ofMillis(500);

    @TempDir
    static Path work;

    private static Vertx vertx;
    private static Collector.Running collector;
    private static PrometheusServer prometheus;
    private static final List<AgentProcess> agents = new ArrayList<>();
    private static Path changingRoot;

    @BeforeAll
    static void startFleet(Vertx vertx) throws Exception {
        assumeTrue(Files.isExecutable(PrometheusServer.BINARY), "the Debian prometheus package is not installed");
        assumeTrue(Files.isRegularFile(AgentProcess.JAR), "cli/target/rdmamon.jar is not built (run mvn verify)");
        PrometheusEndToEndIT.vertx = vertx;
        collector = Collector.start(vertx, CollectorConfig.defaults().withListen("127.0.0.1:0"))
                .toCompletionStage().toCompletableFuture().get();
        String url = "http://127.0.0.1:" + collector.port();
        changingRoot = work.resolve("changing-roce");
        copyTree(FIXTURES.resolve("mlx5-roce"), changingRoot);
        agents.add(AgentProcess.start(work, "fx-roce", FIXTURES.resolve("mlx5-roce"), url));
        agents.add(AgentProcess.start(work, "fx-ib", FIXTURES.resolve("mlx5-ib"), url));
        agents.add(AgentProcess.start(work, "fx-erdma", FIXTURES.resolve("erdma"), url));
        agents.add(AgentProcess.start(work, "fx-changing", changingRoot, url));
        prometheus = PrometheusServer.start(Files.createDirectories(work.resolve("prometheus")),
                "127.0.0.1:" + collector.port(), List.of());
        for (String node : List.of("fx-roce", "fx-ib", "fx-erdma", "fx-changing")) {
            awaitTrue("rdma_agent_up of " + node + " in Prometheus",
                    () -> value("rdma_agent_up{node=\"" + node + "\"}") == 1.0);
        }
    }

    @AfterAll
    static void stopFleet() throws Exception {
        for (AgentProcess agent : agents) {
            agent.close();
        }
        if (prometheus != null) {
            prometheus.close();
        }
    }

    @Test
    void portDataCountersArriveInBytes() throws Exception {
        Path port = FIXTURES.resolve("mlx5-roce/sys/class/infiniband/mlx5_0/ports/1/counters");
        // the kernel prints octets divided by 4; the metric is bytes
        assertEquals(4.0 * fileValue(port.resolve("port_xmit_data")),
                value("rdma_port_data_transmitted_bytes_total{node=\"fx-roce\",device=\"mlx5_0\",port=\"1\"}"));
        assertEquals(4.0 * fileValue(port.resolve("port_rcv_data")),
                value("rdma_port_data_received_bytes_total{node=\"fx-roce\",device=\"mlx5_0\",port=\"1\"}"));
        assertEquals((double) fileValue(port.resolve("port_xmit_packets")),
                value("rdma_port_packets_transmitted_total{node=\"fx-roce\",device=\"mlx5_0\",port=\"1\"}"));
        Path ib = FIXTURES.resolve("mlx5-ib/sys/class/infiniband");
        String ibDevice = onlyChild(ib);
        assertEquals(4.0 * fileValue(ib.resolve(ibDevice + "/ports/1/counters/port_rcv_data")),
                value("rdma_port_data_received_bytes_total{node=\"fx-ib\",device=\"" + ibDevice + "\",port=\"1\"}"));
    }

    @Test
    void perPriorityBytesCarryPriorityAndDirectionLabels() throws Exception {
        Path stats = FIXTURES.resolve("mlx5-roce/ethtool/ens1f0np0/statistics");
        for (int priority = 0; priority < 8; priority++) {
            for (String direction : List.of("rx", "tx")) {
                long expected = ethtoolValue(stats, direction + "_prio" + priority + "_bytes");
                assertEquals((double) expected, value("rdma_prio_bytes_total{node=\"fx-roce\",device=\"mlx5_0\",port=\"1\","
                        + "priority=\"" + priority + "\",direction=\"" + direction + "\"}"), direction + " prio " + priority);
            }
        }
    }

    @Test
    void infoSeriesNameTheNetdevLosslessPriorityAndGids() throws Exception {
        JsonNode info = prometheus.query("rdma_port_info{node=\"fx-roce\",device=\"mlx5_1\",port=\"1\"}");
        assertEquals(1, info.size(), info.toString());
        JsonNode labels = info.get(0).path("metric");
        assertEquals("ens1f1np1", labels.path("netdev").asText());
        assertEquals("Ethernet", labels.path("link_layer").asText());
        assertEquals("5", labels.path("lossless_priorities").asText(), "PFC is enabled on priority 5 on this port");

        JsonNode v2 = prometheus.query("rdma_gid_info{node=\"fx-roce\",device=\"mlx5_0\",type=\"RoCE v2\",ipv4!=\"\"}");
        assertTrue(v2.size() >= 1, "a RoCE v2 GID with an IPv4 address: " + v2);
        Path gids = FIXTURES.resolve("mlx5-roce/sys/class/infiniband/mlx5_0/ports/1/gids");
        String index = v2.get(0).path("metric").path("index").asText();
        assertEquals(Files.readString(gids.resolve(index)).strip(), v2.get(0).path("metric").path("gid").asText());

        JsonNode device = prometheus.query("rdma_device_info{node=\"fx-roce\",device=\"mlx5_0\"}");
        assertEquals(Files.readString(FIXTURES.resolve("mlx5-roce/sys/class/infiniband/mlx5_0/fw_ver")).strip(),
                device.get(0).path("metric").path("fw_version").asText());
    }

    @Test
    void erdmaHwCountersWithoutPortCounters() throws Exception {
        Path hw = FIXTURES.resolve("erdma/sys/class/infiniband/erdma_0/ports/1/hw_counters");
        assertEquals((double) fileValue(hw.resolve("tx_bytes_cnt")),
                value("rdma_hw_tx_bytes_cnt_total{node=\"fx-erdma\",device=\"erdma_0\",port=\"1\"}"));
        assertEquals(0, prometheus.query("rdma_port_data_transmitted_bytes_total{node=\"fx-erdma\"}").size(),
                "eRDMA has no counters/: absent, not zero");
    }

    @Test
    void aDeviceVanishingMidRunLosesOnlyItsOwnSeries() throws Exception {
        String gone = "rdma_device_info{node=\"fx-changing\",device=\"mlx5_1\"}";
        awaitTrue("mlx5_1 of fx-changing in Prometheus", () -> prometheus.query(gone).size() == 1);
        deleteTree(changingRoot.resolve("sys/class/infiniband/mlx5_1"));
        // series of a vanished device are no longer exported; Prometheus marks them stale at the next scrape
        awaitTrue("mlx5_1 of fx-changing gone", () -> prometheus.query(gone).size() == 0);
        assertEquals(1.0, value("rdma_agent_up{node=\"fx-changing\"}"));
        assertEquals(1, prometheus.query("rdma_device_info{node=\"fx-changing\",device=\"mlx5_0\"}").size());
        assertTrue(agents.get(3).isAlive(), "the agent survives: " + agents.get(3).log());
    }

    @Test
    void anAgentWithoutCollectorServesTheSameMetricNames() throws Exception {
        int port = LoopbackPorts.free();
        List<String> argv = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx96m",
                "-jar", AgentProcess.JAR.toAbsolutePath().toString(), "agent", "--node", "fx-local",
                "--listen", "127.0.0.1:" + port, "--host-root", FIXTURES.resolve("mlx5-roce").toAbsolutePath().toString());
        Process agent = new ProcessBuilder(argv).redirectErrorStream(true)
                .redirectOutput(work.resolve("agent-fx-local.log").toFile()).start();
        try {
            java.net.http.HttpClient http = java.net.http.HttpClient.newHttpClient();
            String line = "rdma_port_data_transmitted_bytes_total{device=\"mlx5_0\",node=\"fx-local\",port=\"1\"} ";
            long expected = 4 * fileValue(FIXTURES.resolve("mlx5-roce/sys/class/infiniband/mlx5_0/ports/1/counters/port_xmit_data"));
            awaitTrue("the agent's own /metrics", () -> {
                try {
                    String body = http.send(java.net.http.HttpRequest.newBuilder(
                                    java.net.URI.create("http://127.0.0.1:" + port + "/metrics")).build(),
                            java.net.http.HttpResponse.BodyHandlers.ofString()).body();
                    return body.lines().filter(l -> l.startsWith(line))
                            .anyMatch(l -> Double.parseDouble(l.substring(line.length())) == (double) expected);
                } catch (IOException notYet) {
                    return false;
                }
            });
        } finally {
            agent.destroy();
            agent.waitFor();
        }
    }

    /**
     * A body of several MiB, which the collector deflates in 1 MiB blocks on several threads into one gzip member
     * (ParallelGzipOutputStream): Prometheus's Go gzip reader reads it across the block boundaries to the last series.
     */
    @Test
    void aGzipBodyOfManyBlocksIsScrapedWhole() throws Exception {
        long now = System.currentTimeMillis();
        int bulk = 2000;
        for (int n = 0; n < bulk; n++) {
            String node = String.format("bulk-%04d", n);
            collector.store().connect(node, "it", 1000);
            collector.store().accept(FixtureHosts.golden(node, now, n + 1));
        }
        java.net.http.HttpResponse<String> plain = java.net.http.HttpClient.newHttpClient().send(
                java.net.http.HttpRequest.newBuilder(java.net.URI.create("http://127.0.0.1:" + collector.port()
                        + "/metrics")).build(), java.net.http.HttpResponse.BodyHandlers.ofString());
        assertTrue(plain.body().length() > 3 * 1024 * 1024, "several gzip blocks: " + plain.body().length() + " bytes");
        long series = plain.body().lines().filter(l -> !l.startsWith("#") && l.contains("node=\"bulk-")).count();
        awaitTrue("all " + series + " series of the bulk nodes in Prometheus",
                () -> value("count({node=~\"bulk-.*\"})") == series);
        assertEquals(1.0, value("up{job=\"rdmamon\"}"), "the scrape read the whole body");
    }

    private static double value(String selector) throws IOException, InterruptedException {
        JsonNode result = prometheus.query(selector);
        if (result.size() != 1) {
            fail("expected one series for " + selector + ", got " + result);
        }
        return Double.parseDouble(result.get(0).path("value").get(1).asText());
    }

    /** Polls {@code condition} until it holds; an AssertionError it throws means "not yet" and is reported last. */
    private static void awaitTrue(String what, Callable<Boolean> condition) throws Exception {
        String met = "met";
        String last = Waits.pollUntil(() -> {
            try {
                return condition.call() ? met : "not yet";
            } catch (AssertionError notYet) {
                return notYet.getMessage();
            }
        }, met::equals, WAIT, POLL_INTERVAL);
        if (met.equals(last)) {
            return;
        }
        StringBuilder logs = new StringBuilder();
        for (AgentProcess agent : agents) {
            logs.append(agent.log()).append('\n');
        }
        fail("timed out waiting for " + what + " (last observed: " + last + ")\nagent logs:\n" + logs);
    }

    private static long fileValue(Path file) throws IOException {
        return Long.parseUnsignedLong(Files.readString(file).strip());
    }

    private static long ethtoolValue(Path statistics, String name) throws IOException {
        try (Stream<String> lines = Files.lines(statistics)) {
            return lines.map(String::strip).filter(l -> l.startsWith(name + ":"))
                    .map(l -> Long.parseUnsignedLong(l.substring(name.length() + 1).strip()))
                    .findFirst().orElseThrow(() -> new AssertionError(name + " not in " + statistics));
        }
    }

    private static String onlyChild(Path dir) throws IOException {
        try (Stream<Path> children = Files.list(dir)) {
            List<Path> all = children.toList();
            assertEquals(1, all.size(), dir + " should hold one device");
            return all.get(0).getFileName().toString();
        }
    }

    private static void copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> paths = Files.walk(from)) {
            for (Path source : paths.toList()) {
                Path target = to.resolve(from.relativize(source).toString());
                if (Files.isSymbolicLink(source)) {
                    Files.createDirectories(target.getParent());
                    Files.createSymbolicLink(target, Files.readSymbolicLink(source));
                } else if (Files.isDirectory(source)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(source, target);
                }
            }
        }
    }

    private static void deleteTree(Path root) throws IOException {
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path path : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(path);
            }
        }
    }
}
