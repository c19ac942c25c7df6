package io.rdmamon.agent.bench;

import io.rdmamon.protocol.testing.LoopbackPorts;
import io.rdmamon.collector.Collector;
import io.rdmamon.collector.CollectorConfig;
import io.vertx.core.Vertx;

import java.io.IOException;
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
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Agent CPU and memory at 1 Hz side by side with node_exporter, in one run on one 8-port mlx5 host root
 * ({@link EightPortHost}). Every agent is started with the checkout's {@code rdmamon} launcher, as a user
 * would ({@code rdmamon agent --node N --host-root R ...}), so it runs with the launcher's default JVM flags
 * unless its variant sets {@code JAVA_OPTS}:
 * <ul>
 *   <li>{@code listen}: {@code --listen}, its {@code /metrics} scraped by this process every second;</li>
 *   <li>{@code stream}: {@code --collector}, streaming to a collector in this process (loopback);</li>
 *   <li>one more {@code --listen} agent per {@code --variant NAME=FLAGS} (JAVA_OPTS=FLAGS, empty for the
 *       JVM's own defaults);</li>
 *   <li>one more {@code --listen} agent per {@code --metrics-variant NAME=SPEC}, with the launcher's flags and
 *       {@code --metrics SPEC} (a profile, or e.g. {@code full,-jvm_*,-vertx_*}): what rendering the process's own
 *       Micrometer families costs a scrape (docs/performance.md "Process telemetry");</li>
 *   <li>Debian's {@code prometheus-node-exporter} with {@code --path.sysfs} on the same tree, only the
 *       infiniband collector (and no exporter self-metrics), scraped every second.</li>
 * </ul>
 * Reported per process: CPU (utime+stime from /proc) and RSS in the first 60 s after start (a rollout
 * restarts every agent at once), then CPU per second over a window after the warm-up (at 1 Hz that is CPU
 * per sample or scrape), RSS and peak RSS, the last {@code /metrics} body's series and bytes, and CPU per thread. Not
 * a test; see docs/performance.md.
 *
 * <p>Options: {@code --warmup S} (120, counted from start, at least 60), {@code --seconds S} (60),
 * {@code --launcher PATH} (../rdmamon, from {@code it/}), {@code --variant NAME=FLAGS} (repeatable),
 * {@code --stream-variant NAME=FLAGS} (the same for a streaming agent; repeatable),
 * {@code --metrics-variant NAME=SPEC} (repeatable),
 * {@code --before PATH} (another checkout's launcher: adds its {@code listen} and {@code stream} agents, so that a
 * change is measured before and after in one run), {@code --before-variant NAME=FLAGS} (a {@code --listen} agent of
 * that checkout with JAVA_OPTS=FLAGS; repeatable),
 * {@code --jfr DIR} (record the {@code listen} agent with JFR's profiling settings into DIR),
 * {@code --tree-on DIR} (the directory the host tree is made in: {@code /dev/shm}, tmpfs, by default; the temp
 * directory when DIR does not exist).
 */
public final class AgentVsNodeExporterBench {
    private static final String NODE_EXPORTER = "/usr/bin/prometheus-node-exporter";
    private static final int STARTUP_SECONDS = 60;
    /**
     * Where the host tree goes by default: tmpfs, because sysfs, which the tree stands for, is in memory too. On a
     * disk (ext4) a page cache that the machine trims makes both programs wait for the disk now and then
     * (read-ahead in the reader's profile), which is not what they cost on a real host.
     */
    private static final String DEFAULT_TREE_PARENT = "/dev/shm";

    private AgentVsNodeExporterBench() {
    }

    /**
     * One agent process: the launcher that starts it, its JAVA_OPTS (null: the launcher's defaults), whether
     * it serves /metrics or streams, and its {@code --metrics} (null: the agent's default).
     */
    private record Variant(String name, Path launcher, String javaOpts, boolean listen, String metrics) {
        Variant(String name, Path launcher, String javaOpts, boolean listen) {
            this(name, launcher, javaOpts, listen, null);
        }
    }

    /** A started process and what the driver learnt of it. */
    private static final class Measured {
        final String name;
        final String flags;
        final BenchChild process;
        final URI metrics;
        final AtomicLong scrapes = new AtomicLong();
        final AtomicLong failures = new AtomicLong();
        volatile String lastBody = "";
        ProcessUsage atStartup;
        ProcessUsage windowStart;
        ProcessUsage windowEnd;
        Map<String, Long> threadsStart;
        Map<String, Long> threadsEnd;

        Measured(String name, String flags, BenchChild process, URI metrics) {
            this.name = name;
            this.flags = flags;
            this.process = process;
            this.metrics = metrics;
        }
    }

    public static void main(String[] args) throws Exception {
        int warmup = Math.max(STARTUP_SECONDS, intOption(args, "--warmup", 120));
        int seconds = intOption(args, "--seconds", 60);
        String jfrDir = option(args, "--jfr", null);
        Path launcher = Path.of(option(args, "--launcher", "../rdmamon")).toAbsolutePath().normalize();
        List<Variant> variants = new ArrayList<>(List.of(new Variant("listen", launcher, null, true),
                new Variant("stream", launcher, null, false)));
        String before = option(args, "--before", null);
        Path beforeLauncher = before == null ? null : Path.of(before).toAbsolutePath().normalize();
        if (beforeLauncher != null) {
            variants.add(new Variant("before-listen", beforeLauncher, null, true));
            variants.add(new Variant("before-stream", beforeLauncher, null, false));
        }
        for (int i = 0; i < args.length - 1; i++) {
            boolean beforeVariant = args[i].equals("--before-variant");
            if (args[i].equals("--variant") || args[i].equals("--stream-variant") || beforeVariant) {
                if (beforeVariant && beforeLauncher == null) {
                    throw new IllegalArgumentException("--before-variant needs --before PATH");
                }
                String[] nameFlags = args[i + 1].split("=", 2);
                variants.add(new Variant(nameFlags[0], beforeVariant ? beforeLauncher : launcher,
                        nameFlags.length > 1 ? nameFlags[1] : "", !args[i].equals("--stream-variant")));
            }
            if (args[i].equals("--metrics-variant")) {
                String[] nameSpec = args[i + 1].split("=", 2);
                variants.add(new Variant(nameSpec[0], launcher, null, true, nameSpec.length > 1 ? nameSpec[1] : ""));
            }
        }
        Path work = benchDirectory(option(args, "--tree-on", DEFAULT_TREE_PARENT));
        Vertx vertx = Vertx.vertx();
        List<Measured> processes = new ArrayList<>();
        ScheduledExecutorService scraper = Executors.newScheduledThreadPool(2);
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        try {
            Path root = EightPortHost.build(work);
            Collector.Running collector = Collector.start(vertx, CollectorConfig.defaults().withListen("127.0.0.1:0"))
                    .toCompletionStage().toCompletableFuture().get();
            String collectorUrl = "http://127.0.0.1:" + collector.port();
            String launcherFlags = launcherAgentFlags(launcher);

            int nePort = LoopbackPorts.free();
            processes.add(new Measured("node_exporter", "—", BenchChild.program("node_exporter", List.of(NODE_EXPORTER,
                    "--path.sysfs=" + root.resolve("sys"), "--collector.disable-defaults", "--collector.infiniband",
                    "--web.disable-exporter-metrics", "--web.listen-address=127.0.0.1:" + nePort), Map.of(),
                    work.resolve("node_exporter.log")), URI.create("http://127.0.0.1:" + nePort + "/metrics")));
            for (Variant variant : variants) {
                List<String> argv = new ArrayList<>(List.of(variant.launcher().toString(), "agent", "--node", variant.name(),
                        "--host-root", root.toString()));
                URI metrics = null;
                if (variant.listen()) {
                    int port = LoopbackPorts.free();
                    argv.addAll(List.of("--listen", "127.0.0.1:" + port));
                    if (variant.metrics() != null) {
                        argv.addAll(List.of("--metrics", variant.metrics()));
                    }
                    metrics = URI.create("http://127.0.0.1:" + port + "/metrics");
                } else {
                    argv.addAll(List.of("--collector", collectorUrl));
                }
                String javaOpts = variant.javaOpts();
                if (jfrDir != null && variant.name().equals("listen")) {
                    javaOpts = launcherFlags + " -XX:StartFlightRecording=settings=profile,filename="
                            + Path.of(jfrDir).toAbsolutePath().resolve("agent.jfr");
                }
                Map<String, String> env = javaOpts == null ? Map.of() : Map.of("JAVA_OPTS", javaOpts);
                String flags = variant.javaOpts() == null ? "launcher defaults: " + launcherAgentFlags(variant.launcher())
                        : variant.javaOpts().isBlank() ? "JVM defaults" : variant.javaOpts();
                if (variant.metrics() != null) {
                    flags += "; --metrics " + variant.metrics();
                }
                processes.add(new Measured(variant.name(), flags,
                        BenchChild.program(variant.name(), argv, env, work.resolve(variant.name() + ".log")), metrics));
            }
            long started = System.nanoTime();
            for (Measured m : processes) {
                if (m.metrics != null) {
                    scraper.scheduleAtFixedRate(() -> scrape(http, m), 1000, 1000, TimeUnit.MILLISECONDS);
                }
            }

            sleepUntil(started, STARTUP_SECONDS);
            for (Measured m : processes) {
                m.atStartup = m.process.usage();
            }
            sleepUntil(started, warmup);
            for (Measured m : processes) {
                m.windowStart = m.process.usage();
                m.threadsStart = ProcessUsage.threadCpuMillis(m.process.pid());
            }
            long collectorSamplesStart = streamedSamples(collector, "stream");
            ProcessUsage driverBefore = ProcessUsage.self();
            long windowStarted = System.nanoTime();
            Thread.sleep(seconds * 1000L);
            for (Measured m : processes) {
                m.windowEnd = m.process.usage();
                m.threadsEnd = ProcessUsage.threadCpuMillis(m.process.pid());
            }
            double windowSeconds = (System.nanoTime() - windowStarted) / 1e9;
            long streamed = streamedSamples(collector, "stream") - collectorSamplesStart;
            ProcessUsage driverAfter = ProcessUsage.self();
            scraper.shutdownNow();

            System.out.printf("%nhost tree in %s (%s)%n", work, Files.getFileStore(work).type());
            System.out.printf("first %d s after start, then a %.0f s window %d s after start; load average at the end: %s%n",
                    STARTUP_SECONDS, windowSeconds, warmup, Files.readString(Path.of("/proc/loadavg")).strip());
            System.out.println("| process | JVM flags | CPU ms, first 60 s | RSS MiB at 60 s | CPU ms / s (= per sample at 1 Hz) "
                    + "| ratio to node_exporter | RSS MiB (end) | peak RSS MiB | series | bytes | scrape failures |");
            System.out.println("|---|---|---|---|---|---|---|---|---|---|---|");
            double neCpu = cpuPerSecond(processes.get(0), windowSeconds);
            for (Measured m : processes) {
                double cpu = cpuPerSecond(m, windowSeconds);
                long series = m.lastBody.lines().filter(l -> !l.startsWith("#") && !l.isBlank()).count();
                System.out.printf("| %s | %s | %d | %.1f | %.2f | %.2f | %.1f | %.1f | %s | %s | %s |%n", m.name, m.flags,
                        m.atStartup.cpuMillis(), m.atStartup.rssKiB() / 1024.0, cpu, cpu / neCpu,
                        m.windowEnd.rssKiB() / 1024.0, m.windowEnd.hwmKiB() / 1024.0,
                        m.metrics == null ? "(streamed)" : Long.toString(series),
                        m.metrics == null ? "—" : Integer.toString(m.lastBody.getBytes(StandardCharsets.UTF_8).length),
                        m.metrics == null ? "—" : m.failures.get() + " of " + m.scrapes.get());
            }
            System.out.printf("stream agent: its samples in the collector span %d s of the window%n", streamed);
            for (Measured m : processes) {
                System.out.printf("%s: CPU ms per second by thread (> 0.05):", m.name);
                m.threadsEnd.entrySet().stream()
                        .map(e -> Map.entry(e.getKey(), (e.getValue() - m.threadsStart.getOrDefault(e.getKey(), 0L)) / windowSeconds))
                        .filter(e -> e.getValue() > 0.05)
                        .sorted(Map.Entry.<String, Double>comparingByValue().reversed())
                        .forEach(e -> System.out.printf(" [%s] %.2f;", e.getKey(), e.getValue()));
                System.out.println();
            }
            System.out.printf("driver (collector + scraper) CPU in the window: %d ms%n",
                    driverAfter.cpuMillis() - driverBefore.cpuMillis());
        } finally {
            scraper.shutdownNow();
            for (Measured m : processes) {
                m.process.close();
            }
            vertx.close().toCompletionStage().toCompletableFuture().get();
            EightPortHost.deleteTree(work);
        }
    }

    /** A new directory for the tree and the logs under {@code parent}, or the default temp directory when that is absent. */
    private static Path benchDirectory(String parent) throws IOException {
        Path dir = Path.of(parent);
        return Files.isDirectory(dir) ? Files.createTempDirectory(dir, "rdmamon-agent-bench")
                : Files.createTempDirectory("rdmamon-agent-bench");
    }

    /**
     * The flags {@code rdmamon agent} gets from the launcher when JAVA_OPTS is unset: its
     * {@code agent_java_opts=} line (empty for a launcher without one).
     */
    private static String launcherAgentFlags(Path launcher) throws IOException {
        return Files.readAllLines(launcher).stream().map(String::strip)
                .filter(l -> l.startsWith("agent_java_opts=")).findFirst()
                .map(l -> l.substring("agent_java_opts=".length()).replaceAll("^[\"(]|[\")]$", ""))
                .orElse("");
    }

    private static void scrape(HttpClient http, Measured m) {
        try {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(m.metrics).timeout(Duration.ofSeconds(5)).build(),
                    HttpResponse.BodyHandlers.ofString());
            m.scrapes.incrementAndGet();
            if (r.statusCode() == 200) {
                m.lastBody = r.body();
            } else {
                m.failures.incrementAndGet();
            }
        } catch (IOException e) {
            m.scrapes.incrementAndGet();
            m.failures.incrementAndGet();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static long streamedSamples(Collector.Running collector, String node) {
        return collector.store().node(node).map(n -> n.lastSample().timestampMillis() / 1000).orElse(0L);
    }

    private static double cpuPerSecond(Measured m, double windowSeconds) {
        return (m.windowEnd.cpuMillis() - m.windowStart.cpuMillis()) / windowSeconds;
    }

    private static void sleepUntil(long startedNanos, int seconds) throws InterruptedException {
        long left = startedNanos + seconds * 1_000_000_000L - System.nanoTime();
        if (left > 0) {
            TimeUnit.NANOSECONDS.sleep(left);
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
