package io.rdmamon.agent.bench;

import io.rdmamon.collector.Collector;
import io.rdmamon.collector.CollectorConfig;
import io.rdmamon.protocol.model.HostSample;
import io.rdmamon.protocol.model.IbPort;
import io.vertx.core.Vertx;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Agent CPU per 1 Hz sample and memory, side by side with node_exporter, in one run on one 8-port mlx5
 * host root ({@link EightPortHost}):
 * <ul>
 *   <li>rdmamon agents ({@link BenchAgent}, one JVM per flag set) sampling at 1 Hz and streaming to a
 *       collector in this process (loopback);</li>
 *   <li>Debian's {@code prometheus-node-exporter} with {@code --path.sysfs} on the same tree, only the
 *       infiniband collector (and no exporter self-metrics), scraped by this process at 1 Hz.</li>
 * </ul>
 * After a warm-up, CPU (utime+stime from /proc) over a window is divided by the samples (agents) or
 * scrapes (node_exporter) completed in it. Not a test; see docs/performance.md for the command.
 *
 * <p>Options: {@code --warmup S} (15), {@code --seconds S} (60), {@code --jfr DIR} (record the default
 * agent with JFR's profiling settings into DIR).
 */
public final class AgentVsNodeExporterBench {
    private static final String NODE_EXPORTER = "/usr/bin/prometheus-node-exporter";
    /** JVM flag sets compared; the name becomes the agent's node name. */
    private static final Map<String, List<String>> VARIANTS = new LinkedHashMap<>();

    static {
        VARIANTS.put("default", List.of());
        VARIANTS.put("serial64m", List.of("-Xmx64m", "-XX:+UseSerialGC"));
        VARIANTS.put("serial64m-c1", List.of("-Xmx64m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1"));
    }

    private AgentVsNodeExporterBench() {
    }

    public static void main(String[] args) throws Exception {
        int warmup = intOption(args, "--warmup", 15);
        int seconds = intOption(args, "--seconds", 60);
        String jfrDir = option(args, "--jfr", null);
        Path work = Files.createTempDirectory("rdmamon-agent-bench");
        Vertx vertx = Vertx.vertx();
        List<BenchChild> agents = new ArrayList<>();
        BenchChild nodeExporter = null;
        ScheduledExecutorService scraper = Executors.newSingleThreadScheduledExecutor();
        try {
            Path root = EightPortHost.build(work);
            Collector.Running collector = Collector.start(vertx, CollectorConfig.defaults().withListen("127.0.0.1:0"))
                    .toCompletionStage().toCompletableFuture().get();
            String collectorUrl = "http://127.0.0.1:" + collector.port();

            int nePort = freePort();
            nodeExporter = BenchChild.program("node_exporter", List.of(NODE_EXPORTER,
                    "--path.sysfs=" + root.resolve("sys"), "--collector.disable-defaults", "--collector.infiniband",
                    "--web.disable-exporter-metrics", "--web.listen-address=127.0.0.1:" + nePort),
                    work.resolve("node_exporter.log"));
            for (Map.Entry<String, List<String>> variant : VARIANTS.entrySet()) {
                List<String> flags = new ArrayList<>(variant.getValue());
                if (jfrDir != null && variant.getKey().equals("default")) {
                    flags.add("-XX:StartFlightRecording=settings=profile,filename="
                            + Path.of(jfrDir).toAbsolutePath().resolve("agent.jfr"));
                }
                BenchChild agent = BenchChild.java(variant.getKey(), flags, BenchAgent.class,
                        List.of(root.toString(), collectorUrl, variant.getKey()), work.resolve(variant.getKey() + ".log"));
                agents.add(agent);
                agent.awaitAnswer();
            }

            HttpClient http = HttpClient.newHttpClient();
            URI neMetrics = URI.create("http://127.0.0.1:" + nePort + "/metrics");
            AtomicLong scrapes = new AtomicLong();
            AtomicLong scrapeFailures = new AtomicLong();
            List<String> lastScrape = new ArrayList<>(1);
            lastScrape.add("");
            scraper.scheduleAtFixedRate(() -> {
                try {
                    HttpResponse<String> r = http.send(HttpRequest.newBuilder(neMetrics).build(),
                            HttpResponse.BodyHandlers.ofString());
                    if (r.statusCode() == 200) {
                        scrapes.incrementAndGet();
                        lastScrape.set(0, r.body());
                    } else {
                        scrapeFailures.incrementAndGet();
                    }
                } catch (IOException e) {
                    scrapeFailures.incrementAndGet();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }, 1000, 1000, TimeUnit.MILLISECONDS);

            Thread.sleep(warmup * 1000L);
            Map<String, Window> windows = new LinkedHashMap<>();
            Map<String, Map<String, Long>> threadsBefore = new LinkedHashMap<>();
            for (BenchChild agent : agents) {
                windows.put(agent.name(), Window.open(agent.usage(), samples(agent)));
                threadsBefore.put(agent.name(), ProcessUsage.threadCpuMillis(agent.pid()));
            }
            Window neWindow = Window.open(nodeExporter.usage(), scrapes.get());
            ProcessUsage driverBefore = ProcessUsage.self();
            Thread.sleep(seconds * 1000L);
            Map<String, Map<String, Long>> threadsAfter = new LinkedHashMap<>();
            for (BenchChild agent : agents) {
                windows.get(agent.name()).close(agent.usage(), samples(agent));
                threadsAfter.put(agent.name(), ProcessUsage.threadCpuMillis(agent.pid()));
            }
            neWindow.close(nodeExporter.usage(), scrapes.get());
            ProcessUsage driverAfter = ProcessUsage.self();
            scraper.shutdownNow();

            String neBody = lastScrape.get(0);
            long neSeries = neBody.lines().filter(l -> !l.startsWith("#") && !l.isBlank()).count();
            long nePorts = neBody.lines().filter(l -> l.startsWith("node_infiniband_port_data_received_bytes_total{")).count();
            String rdmamonBody = http.send(HttpRequest.newBuilder(URI.create(collectorUrl + "/metrics")).build(),
                    HttpResponse.BodyHandlers.ofString()).body();

            System.out.printf("%nwindow %d s after %d s warm-up; node_exporter scrape failures: %d; ports seen by node_exporter: %d%n",
                    seconds, warmup, scrapeFailures.get(), nePorts);
            System.out.println("| process | JVM flags | samples | CPU ms / sample | RSS MiB (end) | peak RSS MiB | heap used after GC MiB | series per sample |");
            System.out.println("|---|---|---|---|---|---|---|---|");
            double neCpu = neWindow.cpuPerEvent();
            ProcessUsage neEnd = nodeExporter.usage();
            System.out.printf("| node_exporter 1.5.0 (infiniband only) | — | %d scrapes | %.2f | %.1f | %.1f | — | %d |%n",
                    neWindow.events(), neCpu, neEnd.rssKiB() / 1024.0, neEnd.hwmKiB() / 1024.0, neSeries);
            for (BenchChild agent : agents) {
                Window w = windows.get(agent.name());
                ProcessUsage end = agent.usage();
                String afterGc = agent.ask("gc");
                long series = rdmamonBody.lines().filter(l -> !l.startsWith("#") && l.contains("node=\"" + agent.name() + "\"")).count();
                System.out.printf("| rdmamon agent | %s | %d | %.2f | %.1f | %.1f | %.1f | %d |%n",
                        String.join(" ", VARIANTS.get(agent.name())).isEmpty() ? "(default)" : String.join(" ", VARIANTS.get(agent.name())),
                        w.events(), w.cpuPerEvent(), end.rssKiB() / 1024.0, end.hwmKiB() / 1024.0,
                        Long.parseLong(BenchControl.fields(afterGc).get("heapUsed")) / 1048576.0, series);
            }
            for (BenchChild agent : agents) {
                System.out.printf("ratio %s / node_exporter CPU per sample: %.2f%n", agent.name(),
                        windows.get(agent.name()).cpuPerEvent() / neCpu);
            }
            for (BenchChild agent : agents) {
                System.out.printf("%s: CPU ms per sample by thread (live threads, > 0.1):", agent.name());
                long events = windows.get(agent.name()).events();
                Map<String, Long> before = threadsBefore.get(agent.name());
                threadsAfter.get(agent.name()).entrySet().stream()
                        .map(e -> Map.entry(e.getKey(), (e.getValue() - before.getOrDefault(e.getKey(), 0L)) / (double) events))
                        .filter(e -> e.getValue() > 0.1)
                        .sorted(Map.Entry.<String, Double>comparingByValue().reversed())
                        .forEach(e -> System.out.printf(" [%s] %.2f;", e.getKey(), e.getValue()));
                System.out.println();
            }
            System.out.printf("driver (collector + scraper) CPU in the window: %d ms%n",
                    driverAfter.cpuMillis() - driverBefore.cpuMillis());
            HostSample last = collector.store().node("default").orElseThrow().lastSample();
            IbPort port = last.devices().get(0).ports().get(0);
            System.out.printf("agent sample: %d devices; per port %d PMA counters, %d hw counters, %d ethtool stats, %d GIDs (of 255 entries read)%n",
                    last.devices().size(), port.counters().size(), port.hwCounters().size(),
                    port.ethtool() == null ? 0 : port.ethtool().raw().size(), port.gids().size());
        } finally {
            scraper.shutdownNow();
            for (BenchChild agent : agents) {
                agent.close();
            }
            if (nodeExporter != null) {
                nodeExporter.close();
            }
            vertx.close().toCompletionStage().toCompletableFuture().get();
            EightPortHost.deleteTree(work);
        }
    }

    private static long samples(BenchChild agent) throws IOException {
        return Long.parseLong(BenchControl.fields(agent.ask("stats")).get("samples"));
    }

    /** CPU and events (samples or scrapes) between two points in time. */
    private static final class Window {
        private final long cpuStart;
        private final long eventsStart;
        private long cpu;
        private long events;

        private Window(long cpuStart, long eventsStart) {
            this.cpuStart = cpuStart;
            this.eventsStart = eventsStart;
        }

        static Window open(ProcessUsage usage, long events) {
            return new Window(usage.cpuMillis(), events);
        }

        void close(ProcessUsage usage, long eventsNow) {
            cpu = usage.cpuMillis() - cpuStart;
            events = eventsNow - eventsStart;
        }

        long events() {
            return events;
        }

        double cpuPerEvent() {
            return events == 0 ? Double.NaN : (double) cpu / events;
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    static String option(String[] args, String name, String fallback) {
        for (int i = 0; i < args.length - 1; i++) {
            if (args[i].equals(name)) {
                return args[i + 1];
            }
        }
        return fallback;
    }

    static int intOption(String[] args, String name, int fallback) {
        String value = option(args, name, null);
        return value == null ? fallback : Integer.parseInt(value);
    }
}
