package io.rdmamon.agent.bench;

import io.rdmamon.agent.host.HostReader;
import io.rdmamon.protocol.model.HostSample;
import io.vertx.core.Vertx;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The cost of clustering, as ratios from one run: the same load ({@link CollectorIngestBench}'s generator, 2,000
 * nodes of 8 ports at 1 Hz by default) first on one collector, then spread over {@code --replicas} replicas of a
 * cluster (separate JVMs, Infinispan on loopback), each node connecting first to replica {@code i % replicas}.
 *
 * <p>Reported per setup: samples acknowledged per second; CPU per collector process and in total (cores, from
 * /proc, over the window of steady ingest); RSS; bytes the replicas sent each other per second on the event-bus
 * and member ports (summed {@code bytes_sent} of those TCP sockets from {@code ss -ti}, before and after
 * the window); {@code GET /api/nodes} latency on the first replica and how many nodes it listed; the time to the
 * first {@code fleet} event of {@code /api/live} on the first replica and its size; then, with one {@code /api/live}
 * stream held open on the first replica (a dashboard), the event-bus bytes, the CPU per replica and the bytes the
 * browser gets over up to 30 s. For the cluster, last: the
 * failover time, from {@code kill -9} of the last replica until every node of the generator was acknowledged again
 * (the generator moves a closed connection to the next replica after 1 to 250 ms and sends its hello again, as an
 * agent with several {@code --collector} URLs does; it replays nothing, so this is the reconnect time).
 *
 * <p>Options: {@code --nodes N} (2000), {@code --replicas N} (3), {@code --warmup S} (30), {@code --seconds S}
 * (60), {@code --api-requests N} (10), {@code --history-points N} (120: a small history, so the heaps stay apart
 * from the rate history; docs/performance.md measures the history on one collector).
 */
public final class ClusterIngestBench {
    private static final Pattern BYTES_SENT = Pattern.compile("bytes_sent:(\\d+)");

    private ClusterIngestBench() {
    }

    /** What one setup measured. */
    private record Result(int replicas, double acksPerSecond, List<Double> cores, List<Double> rssMiB,
                          double busBytesPerSecond, double memberBytesPerSecond, double apiP50, double apiMax,
                          long apiNodes, double liveFirstMillis, long liveFirstBytes, double failoverSeconds,
                          double watchedBusBytesPerSecond, List<Double> watchedCores, double viewerBytesPerSecond) {
        double totalCores() {
            return cores.stream().mapToDouble(Double::doubleValue).sum();
        }
    }

    public static void main(String[] args) throws Exception {
        int nodes = AgentVsNodeExporterBench.intOption(args, "--nodes", 2000);
        int replicas = AgentVsNodeExporterBench.intOption(args, "--replicas", 3);
        int warmup = AgentVsNodeExporterBench.intOption(args, "--warmup", 30);
        int seconds = AgentVsNodeExporterBench.intOption(args, "--seconds", 60);
        int apiRequests = AgentVsNodeExporterBench.intOption(args, "--api-requests", 10);
        int historyPoints = AgentVsNodeExporterBench.intOption(args, "--history-points", 120);
        Path work = Files.createTempDirectory("rdmamon-cluster-bench");
        HostSample template = HostReader.forRoot(EightPortHost.build(work)).read("template");
        CollectorIngestBench.FrameFeed feed = new CollectorIngestBench.FrameFeed(template);

        Result one = run(work, feed, nodes, 1, warmup, seconds, apiRequests, historyPoints);
        Result many = run(work, feed, nodes, replicas, warmup, seconds, apiRequests, historyPoints);

        System.out.printf("%n%d nodes x %d ports at 1 Hz; window %d s after %d s warm-up; history %d points%n", nodes,
                template.devices().size(), seconds, warmup, historyPoints);
        System.out.printf("| measure | 1 collector | %d replicas | ratio |%n|---|---|---|---|%n", replicas);
        row("samples acknowledged / s", one.acksPerSecond, many.acksPerSecond, "%.0f");
        row("collector CPU, cores, all processes", one.totalCores(), many.totalCores(), "%.2f");
        row("collector CPU per sample, ms", one.totalCores() * 1000 / one.acksPerSecond,
                many.totalCores() * 1000 / many.acksPerSecond, "%.3f");
        System.out.printf("| CPU per replica, cores | %s | %s | |%n", format(one.cores), format(many.cores));
        System.out.printf("| RSS per replica, MiB | %s | %s | |%n", format(one.rssMiB), format(many.rssMiB));
        System.out.printf("| event-bus traffic between replicas, bytes/s | — | %.0f | |%n", many.busBytesPerSecond);
        System.out.printf("| member-port (JGroups) traffic, bytes/s | — | %.0f | |%n", many.memberBytesPerSecond);
        System.out.printf("| with one dashboard open on the first replica: event-bus traffic, bytes/s | — | %.0f | |%n",
                many.watchedBusBytesPerSecond);
        System.out.printf("| with one dashboard open: CPU per replica, cores | %s | %s | |%n", format(one.watchedCores),
                format(many.watchedCores));
        row("with one dashboard open: /api/live bytes/s to the browser", one.viewerBytesPerSecond,
                many.viewerBytesPerSecond, "%.0f");
        row("GET /api/nodes p50, ms", one.apiP50, many.apiP50, "%.0f");
        row("GET /api/nodes max, ms", one.apiMax, many.apiMax, "%.0f");
        System.out.printf("| nodes listed by /api/nodes on the first replica | %d | %d | |%n", one.apiNodes, many.apiNodes);
        row("/api/live: first fleet event after, ms", one.liveFirstMillis, many.liveFirstMillis, "%.0f");
        System.out.printf("| /api/live: first fleet event, KiB | %.0f | %.0f | |%n", one.liveFirstBytes / 1024.0,
                many.liveFirstBytes / 1024.0);
        System.out.printf("| failover after kill -9 of one replica: every node acknowledged again within, s | — | %.1f | |%n",
                many.failoverSeconds);
        double perNodeCores = many.totalCores() / nodes;
        System.out.printf("%nprojection: %.3f millicores per node in the cluster -> 10,000 nodes ≈ %.1f cores over the"
                + " replicas (%.1f per replica with %d)%n", perNodeCores * 1000, perNodeCores * 10_000,
                perNodeCores * 10_000 / replicas, replicas);
    }

    private static void row(String name, double one, double many, String format) {
        System.out.printf("| %s | " + format + " | " + format + " | %.2f |%n", name, one, many, one == 0 ? 0 : many / one);
    }

    private static String format(List<Double> values) {
        return values.stream().map(v -> String.format("%.2f", v)).reduce((a, b) -> a + " / " + b).orElse("");
    }

    private static Result run(Path work, CollectorIngestBench.FrameFeed feed, int nodes, int replicas, int warmup,
                              int seconds, int apiRequests, int historyPoints) throws Exception {
        List<Integer> memberPorts = new ArrayList<>();
        for (int i = 0; i < replicas; i++) {
            memberPorts.add(freePortPair());
        }
        String members = memberPorts.stream().map(p -> "\"127.0.0.1:" + p + "\"").reduce((a, b) -> a + ", " + b).orElse("");
        List<BenchChild> collectors = new ArrayList<>();
        Vertx vertx = Vertx.vertx();
        CollectorIngestBench.LoadCounters counters = new CollectorIngestBench.LoadCounters();
        List<CollectorIngestBench.LoadVerticle> load = new ArrayList<>();
        try {
            int[] ports = new int[replicas];
            for (int i = 0; i < replicas; i++) {
                String cluster = replicas == 1 ? "" : ", \"cluster\": {\"listen\": \"127.0.0.1:" + memberPorts.get(i)
                        + "\", \"members\": [" + members + "]}";
                Path config = Files.writeString(work.resolve("collector-" + replicas + "-" + i + ".json"),
                        "{\"historyPoints\": " + historyPoints + cluster + "}");
                collectors.add(BenchChild.java("replica-" + i, List.of(), BenchCollector.class,
                        List.of(config.toString()), work.resolve("collector-" + replicas + "-" + i + ".log")));
            }
            for (int i = 0; i < replicas; i++) {
                ports[i] = Integer.parseInt(BenchControl.fields(collectors.get(i).awaitAnswer()).get("port"));
            }
            if (replicas > 1) {
                awaitMembers(ports, replicas);
            }
            for (int k = 0; k < 2; k++) {
                CollectorIngestBench.LoadVerticle verticle = new CollectorIngestBench.LoadVerticle(ports,
                        "bench-node-%04d", nodes, k, 2, feed, counters, 100);
                load.add(verticle);
                vertx.deployVerticle(verticle).toCompletionStage().toCompletableFuture().get();
            }
            Thread.sleep(warmup * 1000L);

            // a lone collector has no cluster ports: nothing to count (and the free ports picked above may meanwhile
            // belong to any other process)
            List<Integer> watched = replicas == 1 ? List.of() : memberPorts;
            List<Integer> busPorts = watched.stream().map(p -> p + 1).toList();
            long busBefore = bytesSent(busPorts);
            long memberBefore = bytesSent(watched);
            List<ProcessUsage> before = new ArrayList<>();
            for (BenchChild c : collectors) {
                before.add(c.usage());
            }
            long acksBefore = counters.acks.get();
            long start = System.nanoTime();
            Thread.sleep(seconds * 1000L);
            double window = (System.nanoTime() - start) / 1e9;
            long acked = counters.acks.get() - acksBefore;
            List<Double> cores = new ArrayList<>();
            List<Double> rss = new ArrayList<>();
            for (int i = 0; i < replicas; i++) {
                ProcessUsage after = collectors.get(i).usage();
                cores.add((after.cpuMillis() - before.get(i).cpuMillis()) / 1000.0 / window);
                rss.add(after.rssKiB() / 1024.0);
            }
            double busRate = (bytesSent(busPorts) - busBefore) / window;
            double memberRate = (bytesSent(watched) - memberBefore) / window;

            HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
            // a dashboard open on the first replica: the replicas share their overview rows while one is watched
            double watchedBusRate;
            double viewerRate;
            List<Double> watchedCores = new ArrayList<>();
            try (LiveViewer viewer = new LiveViewer(http, ports[0])) {
                Thread.sleep(10_000); // the viewer count reaches the other replicas, the first fleet events are out
                long watchedBusBefore = bytesSent(busPorts);
                long viewerBefore = viewer.bytes.get();
                List<ProcessUsage> watchedBefore = new ArrayList<>();
                for (BenchChild c : collectors) {
                    watchedBefore.add(c.usage());
                }
                long watchedStart = System.nanoTime();
                Thread.sleep(Math.min(seconds, 30) * 1000L);
                double watchedWindow = (System.nanoTime() - watchedStart) / 1e9;
                watchedBusRate = (bytesSent(busPorts) - watchedBusBefore) / watchedWindow;
                viewerRate = (viewer.bytes.get() - viewerBefore) / watchedWindow;
                for (int i = 0; i < replicas; i++) {
                    watchedCores.add((collectors.get(i).usage().cpuMillis() - watchedBefore.get(i).cpuMillis())
                            / 1000.0 / watchedWindow);
                }
            }
            double[] latencies = new double[apiRequests];
            long listed = 0;
            for (int i = 0; i < apiRequests; i++) {
                long t = System.nanoTime();
                HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + ports[0]
                        + "/api/nodes")).timeout(Duration.ofSeconds(60)).build(), HttpResponse.BodyHandlers.ofString());
                latencies[i] = (System.nanoTime() - t) / 1e6;
                listed = countOccurrences(r.body(), "\"node\":\"bench-node-");
                Thread.sleep(200);
            }
            Arrays.sort(latencies);
            long[] live = firstFleetEvent(http, ports[0]);

            double failover = Double.NaN;
            if (replicas > 1) {
                long killed = System.nanoTime();
                ProcessHandle.of(collectors.get(replicas - 1).pid()).ifPresent(ProcessHandle::destroyForcibly);
                long deadline = killed + Duration.ofSeconds(90).toNanos();
                while (System.nanoTime() < deadline && load.stream().mapToLong(CollectorIngestBench.LoadVerticle::oldestAckNanos)
                        .min().orElse(0) < killed) {
                    Thread.sleep(100);
                }
                long settled = load.stream().mapToLong(CollectorIngestBench.LoadVerticle::oldestAckNanos).min().orElse(0);
                failover = settled < killed ? Double.POSITIVE_INFINITY : (settled - killed) / 1e9;
            }
            return new Result(replicas, acked / window, cores, rss, busRate, memberRate,
                    latencies.length == 0 ? 0 : latencies[latencies.length / 2],
                    latencies.length == 0 ? 0 : latencies[latencies.length - 1], listed, live[0] / 1e6, live[1], failover,
                    watchedBusRate, watchedCores, viewerRate);
        } finally {
            counters.stopping = true;
            vertx.close().toCompletionStage().toCompletableFuture().get();
            for (BenchChild c : collectors) {
                c.close();
            }
        }
    }

    /** A browser's {@code /api/live} stream, read and counted on a daemon thread until closed. */
    private static final class LiveViewer implements AutoCloseable {
        final java.util.concurrent.atomic.AtomicLong bytes = new java.util.concurrent.atomic.AtomicLong();
        private final java.io.InputStream body;

        LiveViewer(HttpClient http, int port) throws IOException, InterruptedException {
            body = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/api/live")).build(),
                    HttpResponse.BodyHandlers.ofInputStream()).body();
            Thread reader = new Thread(() -> {
                byte[] buffer = new byte[64 * 1024];
                try {
                    for (int n = body.read(buffer); n >= 0; n = body.read(buffer)) {
                        bytes.addAndGet(n);
                    }
                } catch (IOException e) {
                    // closed
                }
            }, "live-viewer");
            reader.setDaemon(true);
            reader.start();
        }

        @Override
        public void close() throws IOException {
            body.close();
        }
    }

    /** Nanoseconds to the first {@code fleet} event of {@code /api/live} and its size in bytes. */
    private static long[] firstFleetEvent(HttpClient http, int port) throws IOException, InterruptedException {
        long start = System.nanoTime();
        HttpResponse<java.io.InputStream> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
                + "/api/live")).timeout(Duration.ofSeconds(60)).build(), HttpResponse.BodyHandlers.ofInputStream());
        try (BufferedReader in = new BufferedReader(new InputStreamReader(r.body(), StandardCharsets.UTF_8))) {
            boolean fleet = false;
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                if (line.equals("event: fleet")) {
                    fleet = true;
                } else if (fleet && line.startsWith("data:")) {
                    return new long[]{System.nanoTime() - start, line.length()};
                }
            }
        }
        return new long[]{-1, 0};
    }

    private static long countOccurrences(String text, String needle) {
        long count = 0;
        for (int i = text.indexOf(needle); i >= 0; i = text.indexOf(needle, i + 1)) {
            count++;
        }
        return count;
    }

    /** Waits until the first replica's {@code /api/cluster} lists {@code count} members. */
    private static void awaitMembers(int[] ports, int count) throws IOException, InterruptedException {
        HttpClient http = HttpClient.newHttpClient();
        long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
        for (int port : ports) {
            while (true) {
                String body = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/api/cluster"))
                        .build(), HttpResponse.BodyHandlers.ofString()).body();
                if (countOccurrences(body, "\"joinedMillis\"") == count) {
                    break;
                }
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("the cluster did not form: " + body);
                }
                Thread.sleep(500);
            }
        }
    }

    /** Bytes sent by every established TCP socket with one end on {@code ports}, from {@code ss -ti}. */
    private static long bytesSent(List<Integer> ports) throws IOException, InterruptedException {
        if (ports.isEmpty()) {
            return 0;
        }
        StringBuilder filter = new StringBuilder("(");
        for (int port : ports) {
            filter.append(filter.length() > 1 ? " or " : " ").append("sport = :").append(port).append(" or dport = :").append(port);
        }
        filter.append(" )");
        Process ss = new ProcessBuilder("ss", "-tinH", "state", "established", filter.toString())
                .redirectErrorStream(true).start();
        String out = new String(ss.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        ss.waitFor();
        long sum = 0;
        Matcher m = BYTES_SENT.matcher(out);
        while (m.find()) {
            sum += Long.parseLong(m.group(1));
        }
        return sum;
    }

    private static int freePortPair() throws IOException {
        for (int attempt = 0; attempt < 50; attempt++) {
            int port;
            try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
                port = socket.getLocalPort();
            }
            try (ServerSocket next = new ServerSocket(port + 1, 1, InetAddress.getLoopbackAddress())) {
                return port;
            } catch (IOException taken) {
                // another
            }
        }
        throw new IOException("no two consecutive free ports");
    }
}
