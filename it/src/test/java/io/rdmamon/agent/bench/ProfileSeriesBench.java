package io.rdmamon.agent.bench;

import com.sun.net.httpserver.HttpServer;
import io.rdmamon.protocol.exposition.ExpositionAssembler;
import io.rdmamon.protocol.exposition.ExpositionBytes;
import io.rdmamon.protocol.exposition.ExpositionFormat;
import io.rdmamon.protocol.exposition.MetricFamilies;
import io.rdmamon.protocol.exposition.MetricSelection;
import io.rdmamon.protocol.exposition.NodeRenderer;
import io.rdmamon.protocol.model.HostSample;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Series per {@code --metrics} profile (docs/architecture.md "The rdmamon command") for the benchmarks' 8-port RoCE
 * host ({@link EightPortHost}:
 * optics, QoS, PCIe, 255-entry GID tables), as the collector and the agent render it, and with {@code --prometheus}
 * what they cost a real Prometheus ({@code /usr/bin/prometheus}): for each profile, a fleet of {@code --nodes} such
 * nodes (200) served on one {@code /metrics} (counters advancing on every scrape, as a live fleet's do) and scraped
 * every {@code --scrape-interval} (15 s) for {@code --minutes} (4), then Prometheus's own
 * {@code prometheus_tsdb_head_series}, {@code process_resident_memory_bytes} and {@code go_memstats_heap_inuse_bytes};
 * the same with no target gives the baseline. Memory per head series = (RSS − baseline RSS) / head series.
 *
 * <p>{@code java -cp $CP io.rdmamon.agent.bench.ProfileSeriesBench [--prometheus] [--nodes 200] [--minutes 4]}
 */
public final class ProfileSeriesBench {
    private static final String[] PROFILES = {"full", "standard", "minimal"};

    private ProfileSeriesBench() {
    }

    public static void main(String[] args) throws Exception {
        boolean prometheus = List.of(args).contains("--prometheus");
        int nodes = AgentVsNodeExporterBench.intOption(args, "--nodes", 200);
        int minutes = AgentVsNodeExporterBench.intOption(args, "--minutes", 4);
        int scrapeSeconds = AgentVsNodeExporterBench.intOption(args, "--scrape-interval", 15);
        HostSample sample = SyntheticHosts.eightPortHost();
        Map<String, Integer> perNode = new LinkedHashMap<>();
        System.out.printf("8-port RoCE host (%d devices, 1 port each): series per node by profile%n", sample.devices().size());
        System.out.println("| profile | series per node | families | series at 100 / 2,000 / 10,000 nodes |");
        System.out.println("|---|---|---|---|");
        for (String profile : PROFILES) {
            List<String> lines = seriesLines(render(List.of("node-0000"), sample, MetricSelection.parse(profile)));
            long families = lines.stream().map(ProfileSeriesBench::familyOf).distinct().count();
            perNode.put(profile, lines.size());
            System.out.printf("| %s | %d | %d | %,d / %,d / %,d |%n", profile, lines.size(), families,
                    lines.size() * 100L, lines.size() * 2_000L, lines.size() * 10_000L);
        }
        Map<String, Integer> byFamily = new TreeMap<>();
        for (String line : seriesLines(render(List.of("node-0000"), sample, MetricSelection.FULL))) {
            byFamily.merge(familyOf(line), 1, Integer::sum);
        }
        System.out.println("\nfull, per family (series per node):");
        byFamily.entrySet().stream().sorted(Map.Entry.<String, Integer>comparingByValue().reversed())
                .forEach(e -> System.out.printf("  %5d %s%n", e.getValue(), e.getKey()));
        if (!prometheus) {
            return;
        }
        if (!Files.isExecutable(Path.of("/usr/bin/prometheus"))) {
            throw new IllegalStateException("/usr/bin/prometheus is not installed");
        }
        List<String> names = new ArrayList<>();
        for (int i = 0; i < nodes; i++) {
            names.add(String.format("bench-node-%04d", i));
        }
        Map<String, double[]> measured = new LinkedHashMap<>();
        measured.put("(no target)", measure(List.of(), 1, scrapeSeconds));
        for (String profile : PROFILES) {
            measured.put(profile, measure(seriesLines(render(names, sample, MetricSelection.parse(profile))), minutes,
                    scrapeSeconds));
        }
        double baseline = measured.get("(no target)")[1];
        System.out.printf("%nReal Prometheus (%s), %d nodes, scraped every %d s for %d min:%n",
                "2.42.0", nodes, scrapeSeconds, minutes);
        System.out.println("| profile | head series | RSS, MiB | Go heap in use, MiB | RSS above baseline per head series, KiB |");
        System.out.println("|---|---|---|---|---|");
        measured.forEach((profile, m) -> System.out.printf("| %s | %,.0f | %.0f | %.0f | %s |%n", profile, m[0],
                m[1] / 1048576.0, m[2] / 1048576.0,
                m[0] < 1000 ? "-" : String.format("%.2f", (m[1] - baseline) / m[0] / 1024.0)));
    }

    /** The exposition of {@code nodes}, each with {@code sample}, as the collector renders it under {@code selection}.
     * */
    static String render(List<String> nodes, HostSample sample, MetricSelection selection) throws IOException {
        ExpositionAssembler assembler = new ExpositionAssembler(selection);
        NodeRenderer renderer = new NodeRenderer(selection);
        ExpositionBytes up = new ExpositionBytes(nodes.size() * 40);
        for (String node : nodes) {
            assembler.add(renderer.render(node, sample));
            renderer.agentUp(up, node, true);
        }
        assembler.add(MetricFamilies.AGENT_UP, up);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        assembler.write(out, ExpositionFormat.PROMETHEUS_TEXT);
        return out.toString(StandardCharsets.UTF_8);
    }

    static List<String> seriesLines(String text) {
        return text.lines().filter(l -> !l.isBlank() && !l.startsWith("#")).toList();
    }

    private static String familyOf(String line) {
        int brace = line.indexOf('{');
        return brace < 0 ? line.substring(0, line.indexOf(' ')) : line.substring(0, brace);
    }

    /**
     * Serves {@code lines} (counters advanced on every scrape), lets a fresh Prometheus scrape them for
     * {@code minutes}, and answers its head series, RSS and Go heap in use.
     */
    private static double[] measure(List<String> lines, int minutes, int scrapeSeconds) throws Exception {
        AtomicInteger scrapes = new AtomicInteger();
        HttpServer target = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        target.createContext("/metrics", exchange -> {
            int n = scrapes.incrementAndGet();
            StringBuilder body = new StringBuilder(lines.size() * 120);
            for (String line : lines) {
                int space = line.lastIndexOf(' ');
                String name = familyOf(line);
                if (name.endsWith("_total")) {
                    double value = Double.parseDouble(line.substring(space + 1));
                    body.append(line, 0, space + 1).append(value + (double) n * (line.hashCode() & 0xffff)).append('\n');
                } else {
                    body.append(line).append('\n');
                }
            }
            byte[] bytes = body.toString().getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "text/plain; version=0.0.4");
            exchange.sendResponseHeaders(200, bytes.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            }
        });
        target.start();
        Path dir = Files.createTempDirectory("rdmamon-profile-prometheus");
        int port;
        try (java.net.ServerSocket s = new java.net.ServerSocket(0)) {
            port = s.getLocalPort();
        }
        Path config = Files.writeString(dir.resolve("prometheus.yml"), "global:\n  scrape_interval: " + scrapeSeconds
                + "s\nscrape_configs:\n  - job_name: rdmamon\n    static_configs:\n      - targets: ['127.0.0.1:"
                + target.getAddress().getPort() + "']\n");
        Process process = new ProcessBuilder("/usr/bin/prometheus", "--config.file=" + config,
                "--storage.tsdb.path=" + dir.resolve("data"), "--web.listen-address=127.0.0.1:" + port)
                .redirectErrorStream(true).redirectOutput(dir.resolve("prometheus.log").toFile()).start();
        try {
            Thread.sleep(minutes * 60_000L);
            HttpClient http = HttpClient.newHttpClient();
            String self = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics"))
                    .timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString()).body();
            return new double[] {selfMetric(self, "prometheus_tsdb_head_series"),
                    selfMetric(self, "process_resident_memory_bytes"), selfMetric(self, "go_memstats_heap_inuse_bytes")};
        } finally {
            process.destroy();
            process.waitFor();
            target.stop(0);
            EightPortHost.deleteTree(dir);
        }
    }

    private static double selfMetric(String text, String name) {
        return text.lines().filter(l -> l.startsWith(name + " ")).mapToDouble(l -> Double.parseDouble(l.split(" ")[1]))
                .findFirst().orElseThrow(() -> new IllegalStateException("no " + name + " in Prometheus's /metrics"));
    }
}
