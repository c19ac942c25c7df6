package io.rdmamon.agent.bench;

import io.rdmamon.agent.host.HostReader;
import io.rdmamon.protocol.exposition.MetricSelection;
import io.rdmamon.protocol.model.HostSample;
import io.rdmamon.protocol.wire.Frame;
import io.rdmamon.protocol.wire.FrameCodec;
import io.rdmamon.protocol.wire.HostLayout;
import io.rdmamon.protocol.wire.SampleEncoder;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VerticleBase;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.WebSocket;
import io.vertx.core.http.WebSocketClient;
import io.vertx.core.http.WebSocketClientOptions;
import io.vertx.core.http.WebSocketConnectOptions;
import io.rdmamon.protocol.wire.WireFormat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Collector ingest at fleet scale: a collector process ({@link BenchCollector}) and this process as the
 * load generator, opening one WebSocket per simulated node (default 2,000) and sending one sample per
 * node per second over the real wire protocol (hello with the layout, then values frames, encoded by
 * {@link SampleEncoder} and {@link FrameCodec}).
 *
 * <p>The samples are those of a real 8-port mlx5 host: {@link HostReader} reads {@link EightPortHost}
 * once for the layout and starting values; every counter then grows at its own rate (its starting value
 * spread over ten days of uptime, scaled per traffic profile). Nodes share 16 traffic profiles, so the
 * generator encodes 16 frames per second instead of 2,000 (the collector decodes every frame anyway);
 * sends are spread evenly over each second in 20 slots, as independent agents would be.
 *
 * <p>Reported: collector and generator CPU (cores, from /proc; the collector's also per thread) over a window
 * of steady ingest, samples acknowledged per second, heap after a full GC (with the growth of the per-port
 * rate history), RSS, and {@code /metrics} latency and size over a series of scrapes.
 *
 * <p>Heap: a full GC after the window of steady ingest, before any scrape, gives the heap without the {@code /metrics}
 * cache; a second after the scrapes gives, beyond the rate histories' own growth meanwhile, what the first scrape
 * keeps: the rendered series of every node ({@code RdmaMetrics}' cache, held until each node's next sample and rebuilt
 * by the next scrape). The full-history heap is the heap before any scrape with the histories' bytes now
 * ({@code NodeStore.historyBytes}, the rings' allocated capacity) replaced by their bytes when full (each ring
 * doubles up to {@code historyPoints}), printed without and with the cache. The heap growth over the window (a
 * first full GC at its start) is printed beside the histories' own growth as a cross-check; at small fleets
 * transients of the same size hide it.
 *
 * <p>Options: {@code --nodes N} (2000), {@code --warmup S} (30), {@code --seconds S} (60),
 * {@code --scrapes N} (20; 0 for ingest only), {@code --prometheus-scrapes N} (0: further scrapes with the
 * headers Prometheus sends, OpenMetrics and gzip), {@code --collector-flags "..."} (JVM flags of the collector,
 * space-separated), {@code --connect-batch N} (100: connections opened at once by each of the two load verticles;
 * 1000 opens all 2,000 at once, a DaemonSet rollout's connection storm), {@code --history-points N} (900, the
 * default: the collector's {@code historyPoints}; a smaller value fills the history within the run, to measure the
 * heap with a full history without waiting 15 minutes), {@code --metrics SPEC} (full: the collector's {@code metrics}
 * profile, docs/architecture.md "The rdmamon command").
 *
 * <p>Event loops blocked longer than 100 ms are counted from the collector's log ({@link BlockedLoops}): during the
 * connection phase (until 5 s after the last connection is up) and from the window of steady ingest to the end of
 * the scrapes (without the full collections the bench asks for to measure the heap).
 */
public final class CollectorIngestBench {
    private static final int PROFILES = 16;
    private static final int SLOTS_PER_SECOND = 20;
    private static final long UPTIME_SECONDS = 10L * 24 * 3600;
    private static final int DEFAULT_HISTORY_POINTS = 900; // CollectorConfig.defaults()

    private CollectorIngestBench() {
    }

    public static void main(String[] args) throws Exception {
        int nodes = AgentVsNodeExporterBench.intOption(args, "--nodes", 2000);
        int warmup = AgentVsNodeExporterBench.intOption(args, "--warmup", 30);
        int seconds = AgentVsNodeExporterBench.intOption(args, "--seconds", 60);
        int scrapes = AgentVsNodeExporterBench.intOption(args, "--scrapes", 20);
        int prometheusScrapes = AgentVsNodeExporterBench.intOption(args, "--prometheus-scrapes", 0);
        String flags = AgentVsNodeExporterBench.option(args, "--collector-flags", "");
        int connectBatch = AgentVsNodeExporterBench.intOption(args, "--connect-batch", 100);
        int historyPoints = AgentVsNodeExporterBench.intOption(args, "--history-points", DEFAULT_HISTORY_POINTS);
        String metrics = MetricSelection.parse(AgentVsNodeExporterBench.option(args, "--metrics", "full")).toString();
        HostSample template = SyntheticHosts.eightPortHost();
        FrameFeed feed = new FrameFeed(template);

        Path log = Files.createTempFile("rdmamon-bench-collector", ".log");
        List<String> jvmFlags = flags.isBlank() ? List.of() : List.of(flags.trim().split("\\s+"));
        Vertx vertx = Vertx.vertx();
        Path config = Files.writeString(Files.createTempFile("rdmamon-bench-collector", ".json"),
                "{\"historyPoints\": " + historyPoints + ", \"metrics\": \"" + metrics + "\"}");
        try (BenchChild collector = BenchChild.java("collector", jvmFlags, BenchCollector.class,
                List.of(config.toString()), log)) {
            int port = Integer.parseInt(BenchControl.fields(collector.awaitAnswer()).get("port"));
            LoadCounters counters = new LoadCounters();
            AtomicLong acks = counters.acks;
            AtomicLong skipped = counters.skipped;
            int instances = 2;
            long connectStart = System.nanoTime();
            for (int k = 0; k < instances; k++) {
                vertx.deployVerticle(new LoadVerticle(port, "bench-node-%04d", nodes, k, instances, feed, counters,
                                connectBatch))
                        .toCompletionStage().toCompletableFuture().get();
            }
            double connectSeconds = (System.nanoTime() - connectStart) / 1e9;
            System.out.printf("%d connections up in %.1f s (%s)%n", nodes, connectSeconds, collector.ask("stats"));
            Thread.sleep(Math.min(warmup, 5) * 1000L); // the last hellos are applied
            BlockedLoops connectBlocked = BlockedLoops.in(log, 0);
            Thread.sleep(Math.max(0, warmup - 5) * 1000L);

            long heapStart = heapAfterGc(collector);
            long heapStartNanos = System.nanoTime();
            long historyBytesStart = historyBytes(collector);
            // the full GC the bench asked for stops every thread: the window of steady ingest starts after its report
            Thread.sleep(1000);
            BlockedLoops beforeWindow = BlockedLoops.in(log, 0);
            ProcessUsage collectorBefore = collector.usage();
            Map<String, Long> threadsBefore = ProcessUsage.threadCpuMillis(collector.pid(), false);
            ProcessUsage selfBefore = ProcessUsage.self();
            long acksBefore = acks.get();
            long windowStart = System.nanoTime();
            Thread.sleep(seconds * 1000L);
            double windowSeconds = (System.nanoTime() - windowStart) / 1e9;
            ProcessUsage collectorAfter = collector.usage();
            Map<String, Long> threadsAfter = ProcessUsage.threadCpuMillis(collector.pid(), false);
            ProcessUsage selfAfter = ProcessUsage.self();
            long acked = acks.get() - acksBefore;
            // no scrape yet: from heapStart to here the heap grew by the rate histories alone
            long heapHistory = heapAfterGc(collector);
            long heapHistoryNanos = System.nanoTime();
            long historyBytesNow = historyBytes(collector);
            double historySeconds = (heapHistoryNanos - heapStartNanos) / 1e9;
            double elapsedAtHistory = (heapHistoryNanos - connectStart) / 1e9;

            HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
            HttpRequest scrape = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics"))
                    .timeout(Duration.ofSeconds(120)).build();
            double[] latencies = new double[scrapes];
            long bytes = 0;
            long series = 0;
            ProcessUsage scrapeCpuBefore = collector.usage();
            for (int i = 0; i < scrapes; i++) {
                long start = System.nanoTime();
                HttpResponse<byte[]> r = http.send(scrape, HttpResponse.BodyHandlers.ofByteArray());
                latencies[i] = (System.nanoTime() - start) / 1e6;
                if (r.statusCode() != 200) {
                    throw new IllegalStateException("/metrics answered " + r.statusCode());
                }
                bytes = r.body().length;
                if (i == 0) {
                    series = new String(r.body(), java.nio.charset.StandardCharsets.UTF_8).lines()
                            .filter(l -> !l.startsWith("#") && !l.isBlank()).count();
                }
                Thread.sleep(Math.max(0, 1000 - (long) latencies[i]));
            }
            ProcessUsage scrapeCpuAfter = collector.usage();
            // as Prometheus 2.x asks: OpenMetrics first, gzip
            HttpRequest prometheusScrape = HttpRequest.newBuilder(scrape.uri()).timeout(Duration.ofSeconds(120))
                    .header("Accept", "application/openmetrics-text;version=1.0.0,application/openmetrics-text;"
                            + "version=0.0.1;q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1")
                    .header("Accept-Encoding", "gzip").build();
            double[] prometheusLatencies = new double[prometheusScrapes];
            long compressedBytes = 0;
            ProcessUsage prometheusCpuBefore = collector.usage();
            for (int i = 0; i < prometheusScrapes; i++) {
                long start = System.nanoTime();
                HttpResponse<byte[]> r = http.send(prometheusScrape, HttpResponse.BodyHandlers.ofByteArray());
                prometheusLatencies[i] = (System.nanoTime() - start) / 1e6;
                if (r.statusCode() != 200) {
                    throw new IllegalStateException("/metrics answered " + r.statusCode());
                }
                compressedBytes = r.body().length;
                Thread.sleep(Math.max(0, 1000 - (long) prometheusLatencies[i]));
            }
            ProcessUsage prometheusCpuAfter = collector.usage();
            BlockedLoops runBlocked = BlockedLoops.in(log, beforeWindow.lines());
            long heapEnd = heapAfterGc(collector);
            long heapEndNanos = System.nanoTime();
            long historyBytesEnd = historyBytes(collector);
            ProcessUsage collectorEnd = collector.usage();
            counters.stopping = true;
            System.out.printf("collector (%s): %s%n", flags.isBlank() ? "default JVM flags" : flags, collector.ask("stats"));

            double collectorCores = (collectorAfter.cpuMillis() - collectorBefore.cpuMillis()) / 1000.0 / windowSeconds;
            double generatorCores = (selfAfter.cpuMillis() - selfBefore.cpuMillis()) / 1000.0 / windowSeconds;
            double growthPerSecond = (heapHistory - heapStart) / historySeconds;
            double elapsedSinceConnect = (heapEndNanos - connectStart) / 1e9;
            // what the scrapes left beyond the histories' growth meanwhile: the rendered series every node keeps
            double metricsCache = scrapes + prometheusScrapes == 0 ? 0
                    : Math.max(0, heapEnd - heapHistory - (historyBytesEnd - historyBytesNow));
            // the full history from the histories alone: the heap before any scrape, less what the rings hold now, plus
            // what they hold when full (each ring doubles up to historyPoints: 8 bytes per point and node, 16 per point
            // and port, NodeHistory), so neither the /metrics cache nor a transient of the window enters it
            int ports = template.devices().stream().mapToInt(d -> d.ports().size()).sum();
            long fullHistoryBytes = (long) nodes * historyPoints * (Long.BYTES + 4L * Float.BYTES * ports);
            double heapFullHistory = heapHistory - historyBytesNow + Math.max(historyBytesNow, fullHistoryBytes);
            double historyBytesPerSecond = (historyBytesNow - historyBytesStart) / historySeconds;
            Arrays.sort(latencies);
            System.out.printf("%n%d nodes x %d ports at 1 Hz, window %.0f s after %d s warm-up, --metrics %s%n", nodes,
                    template.devices().size(), windowSeconds, warmup, metrics);
            System.out.println("| measure | value |");
            System.out.println("|---|---|");
            System.out.printf("| samples acknowledged / s (target %d) | %.0f |%n", nodes, acked / windowSeconds);
            System.out.printf("| sends skipped (write queue full) | %d |%n", skipped.get());
            System.out.printf("| collector CPU, cores | %.2f |%n", collectorCores);
            System.out.printf("| collector CPU per sample, ms | %.3f |%n", collectorCores * 1000 * windowSeconds / Math.max(1, acked));
            System.out.printf("| load generator CPU, cores | %.2f |%n", generatorCores);
            System.out.printf("| collector heap after full GC before any scrape, MiB (after %.0f s) | %.0f |%n",
                    elapsedAtHistory, heapHistory / 1048576.0);
            System.out.printf("| collector heap after full GC after the scrapes, MiB (after %.0f s) | %.0f |%n",
                    elapsedSinceConnect, heapEnd / 1048576.0);
            System.out.printf("| heap growth over %.0f s of ingest without scrapes, MiB/s | %.3f |%n", historySeconds,
                    growthPerSecond / 1048576.0);
            System.out.printf("| rate histories' own bytes (rdmamon_collector_history_bytes): now / when full, MiB; growth, MiB/s | %.1f / %.1f; %.3f |%n",
                    historyBytesNow / 1048576.0, fullHistoryBytes / 1048576.0, historyBytesPerSecond / 1048576.0);
            System.out.printf("| /metrics cache (every node's rendered series, kept between scrapes), MiB | %s |%n",
                    scrapes + prometheusScrapes == 0 ? "- (no scrape)" : String.format("%.0f", metricsCache / 1048576.0));
            String fill = historyBytesNow >= fullHistoryBytes ? "measured" : "heap before any scrape - histories now + histories full";
            System.out.printf("| heap after GC with full %d-point history (%s), without the /metrics cache, MiB | %.0f |%n",
                    historyPoints, fill, heapFullHistory / 1048576.0);
            if (scrapes + prometheusScrapes > 0) {
                System.out.printf("| heap after GC with full %d-point history (%s), scraped, MiB | %.0f |%n",
                        historyPoints, fill, (heapFullHistory + metricsCache) / 1048576.0);
            }
            System.out.printf("| connection phase: %d connections, %d at once, up in, s | %.1f |%n", nodes,
                    Math.min(nodes, connectBatch * instances), connectSeconds);
            System.out.printf("| event loops blocked > %d ms during connection phase: warnings / blocks / max ms | %d / %d / %d |%n",
                    BenchCollector.BLOCKED_LIMIT_MILLIS, connectBlocked.warnings(), connectBlocked.blocks(), connectBlocked.maxMillis());
            System.out.printf("| event loops blocked > %d ms during ingest and scrapes: warnings / blocks / max ms | %d / %d / %d |%n",
                    BenchCollector.BLOCKED_LIMIT_MILLIS, runBlocked.warnings(), runBlocked.blocks(), runBlocked.maxMillis());
            System.out.printf("| collector RSS / peak RSS, MiB | %.0f / %.0f |%n", collectorEnd.rssKiB() / 1024.0, collectorEnd.hwmKiB() / 1024.0);
            if (scrapes > 0) {
                System.out.printf("| /metrics p50 / p99 / max, ms (%d scrapes) | %.0f / %.0f / %.0f |%n", scrapes,
                        latencies[scrapes / 2], latencies[Math.min(scrapes - 1, (int) Math.ceil(scrapes * 0.99) - 1)],
                        latencies[scrapes - 1]);
                System.out.printf("| /metrics size, MiB / series | %.1f / %d |%n", bytes / 1048576.0, series);
            }
            threadsAfter.forEach((thread, millis) -> {
                double cores = (millis - threadsBefore.getOrDefault(thread, 0L)) / 1000.0 / windowSeconds;
                if (cores >= 0.01) {
                    System.out.printf("| collector thread %s, cores | %.2f |%n", thread, cores);
                }
            });
            if (scrapes > 0) {
                System.out.printf("| collector CPU during the scrape phase, cores | %.2f |%n",
                        (scrapeCpuAfter.cpuMillis() - scrapeCpuBefore.cpuMillis()) / 1000.0
                                / Math.max(scrapes, Arrays.stream(latencies).sum() / 1000));
            }
            if (prometheusScrapes > 0) {
                Arrays.sort(prometheusLatencies);
                System.out.printf("| /metrics as Prometheus asks (OpenMetrics, gzip) p50 / max, ms (%d scrapes) | %.0f / %.0f |%n",
                        prometheusScrapes, prometheusLatencies[prometheusScrapes / 2], prometheusLatencies[prometheusScrapes - 1]);
                System.out.printf("| /metrics gzip size, MiB | %.1f |%n", compressedBytes / 1048576.0);
                System.out.printf("| collector CPU during the Prometheus-style scrapes, cores | %.2f |%n",
                        (prometheusCpuAfter.cpuMillis() - prometheusCpuBefore.cpuMillis()) / 1000.0
                                / Math.max(prometheusScrapes, Arrays.stream(prometheusLatencies).sum() / 1000));
            }
        } finally {
            vertx.close().toCompletionStage().toCompletableFuture().get();
            System.out.println("collector log: " + log);
        }
    }

    private static long historyBytes(BenchChild collector) throws java.io.IOException {
        return Long.parseLong(BenchControl.fields(collector.ask("stats")).get("historyBytes"));
    }

    private static long heapAfterGc(BenchChild collector) throws java.io.IOException {
        return Long.parseLong(BenchControl.fields(collector.ask("gc")).get("heapUsed"));
    }

    /**
     * The values frames of every traffic profile for the current second, encoded once per second. Every
     * slot of a values frame is a counter (ValueSlots), so each grows at a fixed rate per profile.
     */
    static final class FrameFeed {
        private final FrameCodec codec = new FrameCodec();
        private final HostLayout layout;
        private final Frame.Values first;
        private final long[][] ratePerSecond = new long[PROFILES][];
        private long tick = -1;
        private Buffer[] frames;

        FrameFeed(HostSample template) {
            List<Frame> encoded = new SampleEncoder("template", "bench", 1000).encode(template, 1);
            layout = ((Frame.Hello) encoded.get(0)).layout();
            first = (Frame.Values) encoded.get(1);
            Random random = new Random(1);
            long[] base = first.values();
            for (int p = 0; p < PROFILES; p++) {
                double scale = 0.5 + random.nextDouble();
                ratePerSecond[p] = Arrays.stream(base).map(v -> (long) (v / (double) UPTIME_SECONDS * scale)).toArray();
            }
        }

        Buffer hello(String node) {
            return Buffer.buffer(codec.encode(new Frame.Hello(node, "bench", 1000, 1, layout)));
        }

        /** The frame of {@code profile} for second {@code second} (1-based; it is also the seq). */
        synchronized Buffer values(int profile, long second) {
            if (second != tick) {
                tick = second;
                frames = new Buffer[PROFILES];
                long[] base = first.values();
                for (int p = 0; p < PROFILES; p++) {
                    long[] values = new long[base.length];
                    for (int i = 0; i < values.length; i++) {
                        values[i] = base[i] + ratePerSecond[p][i] * second;
                    }
                    frames[p] = Buffer.buffer(codec.encode(new Frame.Values(1, second, System.currentTimeMillis(),
                            values, first.absent(), first.sources())));
                }
            }
            return frames[profile];
        }
    }

    /** What the load generator did and what came back, over all its verticles. */
    static final class LoadCounters {
        /** Values frames written. */
        final AtomicLong sent = new AtomicLong();
        /** Frames the collector sent back (acks). */
        final AtomicLong acks = new AtomicLong();
        /** Sends skipped because the socket's write queue was full. */
        final AtomicLong skipped = new AtomicLong();
        /** Connections the collector closed while the run was on. */
        final AtomicLong closedByCollector = new AtomicLong();
        /** Set when the run is over: closed connections are expected from then on. */
        volatile boolean stopping;
    }

    /**
     * Owns nodes {@code index % instances == instance}: their connections and their send schedule. With several
     * collector ports (replicas of a cluster), node {@code i} connects first to port {@code i % ports}, and a
     * connection the collector closes (or loses) moves on to the next port after a short jittered pause and sends
     * its hello again, as an agent given several {@code --collector} URLs does; with one port a closed connection
     * stays closed (counted in {@link LoadCounters#closedByCollector}).
     */
    static final class LoadVerticle extends VerticleBase {
        private final int[] ports;
        private final String nameFormat;
        private final int nodes;
        private final int instance;
        private final int instances;
        private final FrameFeed feed;
        private final LoadCounters counters;
        private final int connectBatch;
        private final List<Integer> owned = new ArrayList<>();
        private final List<WebSocket> sockets = new ArrayList<>();
        private final Random jitter = new Random(7);
        private long[] lastSent;
        /** When each owned node's last ack arrived (System.nanoTime), for the failover time. */
        private long[] lastAckNanos;
        private long startMillis;
        /** Held in a field: Vert.x closes a client (and its WebSockets) once it is unreachable. */
        private WebSocketClient client;

        /** Node {@code i} is named {@code String.format(nameFormat, i)}. */
        LoadVerticle(int port, String nameFormat, int nodes, int instance, int instances, FrameFeed feed, LoadCounters counters,
                     int connectBatch) {
            this(new int[]{port}, nameFormat, nodes, instance, instances, feed, counters, connectBatch);
        }

        LoadVerticle(int[] ports, String nameFormat, int nodes, int instance, int instances, FrameFeed feed,
                     LoadCounters counters, int connectBatch) {
            this.connectBatch = connectBatch;
            this.ports = ports.clone();
            this.nameFormat = nameFormat;
            this.nodes = nodes;
            this.instance = instance;
            this.instances = instances;
            this.feed = feed;
            this.counters = counters;
        }

        @Override
        public Future<?> start() {
            for (int i = instance; i < nodes; i += instances) {
                owned.add(i);
            }
            lastSent = new long[owned.size()];
            lastAckNanos = new long[owned.size()];
            owned.forEach(i -> sockets.add(null));
            client = vertx.createWebSocketClient(new WebSocketClientOptions()
                    .setMaxConnections(nodes).setMaxMessageSize(WireFormat.DEFAULT_MAX_FRAME_BYTES));
            Future<Void> chain = Future.succeededFuture();
            for (int from = 0; from < owned.size(); from += connectBatch) {
                List<Integer> slice = owned.subList(from, Math.min(owned.size(), from + connectBatch));
                chain = chain.compose(v -> Future.all(slice.stream().map(i -> connect(i, i % ports.length)).toList())
                        .mapEmpty());
            }
            return chain.onSuccess(v -> {
                startMillis = System.currentTimeMillis();
                vertx.setPeriodic(1000 / SLOTS_PER_SECOND, id -> sendDue());
            });
        }

        /** The oldest last-ack time (System.nanoTime) over the owned nodes: all of them were acked since. */
        long oldestAckNanos() {
            long oldest = Long.MAX_VALUE;
            for (long nanos : lastAckNanos) {
                oldest = Math.min(oldest, nanos);
            }
            return oldest;
        }

        private Future<Void> connect(int index, int portIndex) {
            String node = String.format(nameFormat, index);
            int j = (index - instance) / instances; // owned.get(j) == instance + j * instances
            WebSocketConnectOptions options = new WebSocketConnectOptions().setHost("127.0.0.1")
                    .setPort(ports[portIndex]).setURI(WireFormat.STREAM_PATH);
            return client.connect(options).map(ws -> {
                ws.binaryMessageHandler(message -> {
                    counters.acks.incrementAndGet();
                    lastAckNanos[j] = System.nanoTime();
                });
                ws.closeHandler(v -> {
                    if (!counters.stopping) {
                        counters.closedByCollector.incrementAndGet();
                        if (ports.length > 1) {
                            failOver(index, (portIndex + 1) % ports.length);
                        } else {
                            System.err.println(node + " closed by the collector: " + ws.closeStatusCode() + " "
                                    + ws.closeReason());
                        }
                    }
                });
                ws.writeBinaryMessage(feed.hello(node));
                sockets.set(j, ws);
                return null;
            });
        }

        private void failOver(int index, int portIndex) {
            vertx.setTimer(1 + jitter.nextInt(250), id -> connect(index, portIndex)
                    .onFailure(e -> failOver(index, (portIndex + 1) % ports.length)));
        }

        /** Sends second {@code t}'s frame to every owned node whose slot in the second has come. */
        private void sendDue() {
            if (counters.stopping) {
                return;
            }
            long elapsed = System.currentTimeMillis() - startMillis;
            long second = elapsed / 1000 + 1;
            long slot = (elapsed % 1000) * SLOTS_PER_SECOND / 1000;
            for (int j = 0; j < sockets.size(); j++) {
                if (lastSent[j] < second && j % SLOTS_PER_SECOND <= slot) {
                    WebSocket ws = sockets.get(j);
                    if (ws == null || ws.isClosed()) {
                        continue;
                    }
                    if (ws.writeQueueFull()) {
                        counters.skipped.incrementAndGet();
                    } else {
                        ws.writeBinaryMessage(feed.values(owned.get(j) % PROFILES, second));
                        counters.sent.incrementAndGet();
                    }
                    lastSent[j] = second;
                }
            }
        }
    }
}
