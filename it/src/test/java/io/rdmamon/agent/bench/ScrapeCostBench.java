package io.rdmamon.agent.bench;

import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.rdmamon.collector.http.MetricsHandler;
import io.rdmamon.collector.metrics.CountingSink;
import io.rdmamon.collector.metrics.RdmaMetrics;
import io.rdmamon.collector.store.NodeStore;
import io.rdmamon.protocol.exposition.ExpositionFormat;
import io.rdmamon.protocol.exposition.ExpositionGzip;
import io.rdmamon.protocol.exposition.ParallelGzipOutputStream;
import io.rdmamon.protocol.model.HostSample;
import io.rdmamon.protocol.wire.FrameCodec;
import io.rdmamon.protocol.wire.SampleDecoder;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.util.Arrays;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * Where one {@code /metrics} at fleet scale spends its time, without HTTP or ingest (a main, not a test): a store of
 * {@code --nodes} (2,000) copies of the 8-port mlx5 host, fed with the values frames of {@link CollectorIngestBench}
 * (the same 16 traffic profiles, decoded as the collector decodes them); then, in rounds, every node gets a new
 * sample and the exposition is written to a counting sink in five ways: as Prometheus asks for it (OpenMetrics,
 * gzip) and as plain text, each on one thread ({@link ExpositionGzip}, as before the collector's second footprint
 * pass and as the agent does) and with the rendering and the deflating spread over a pool of one thread per core;
 * the gzip one on the pool both with every run of node series deflated and with the runs whose text did not change
 * since the scrape before reused (as the collector does now). The five take turns round by round, so that the load of a shared machine falls on
 * all alike. Reports per way the median wall and process CPU time per exposition and the size, and the heap
 * allocated per values frame by the decode and the store (the GC pressure of ingest); run it under JFR to see
 * where the time goes.
 *
 * <p>{@code java -cp $CP io.rdmamon.agent.bench.ScrapeCostBench --nodes 2000 --rounds 9}
 */
public final class ScrapeCostBench {
    private ScrapeCostBench() {
    }

    public static void main(String[] args) throws Exception {
        int nodes = AgentVsNodeExporterBench.intOption(args, "--nodes", 2000);
        int rounds = AgentVsNodeExporterBench.intOption(args, "--rounds", 9);
        HostSample template = SyntheticHosts.eightPortHost();
        CollectorIngestBench.FrameFeed feed = new CollectorIngestBench.FrameFeed(template);
        FrameCodec codec = new FrameCodec();
        SampleDecoder[] decoders = new SampleDecoder[nodes];
        long[] clock = {System.currentTimeMillis()};
        NodeStore store = new NodeStore(() -> clock[0], 3, Long.MAX_VALUE, 2, nodes);
        for (int n = 0; n < nodes; n++) {
            String node = String.format("bench-node-%04d", n);
            decoders[n] = new SampleDecoder();
            decoders[n].accept(codec.decode(feed.hello(node).getBytes()));
            store.connect(node, "bench", 1000);
        }
        RdmaMetrics metrics = new RdmaMetrics(store);
        PrometheusRegistry registry = new PrometheusRegistry();
        ExecutorService pool = Executors.newFixedThreadPool(Runtime.getRuntime().availableProcessors());
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long ingestBytes = 0;
        long ingestFrames = 0;
        com.sun.management.OperatingSystemMXBean os =
                (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        String[] modes = {"OpenMetrics + gzip, one thread", "OpenMetrics + parallel render and gzip, every run deflated",
                "OpenMetrics + parallel render and gzip, unchanged runs reused", "plain text, one thread",
                "plain text, parallel render"};
        long reusedBytes = 0;
        long deflatedBytes = 0;
        double[][] millis = new double[modes.length][rounds];
        double[][] cpuMillis = new double[modes.length][rounds];
        long[] size = new long[modes.length];
        long second = 0;
        // the modes take turns round by round, so that the load of a shared machine falls on all of them alike
        for (int r = 0; r < rounds; r++) {
            for (int m = 0; m < modes.length; m++) {
                String mode = modes[m];
                boolean gzip = mode.contains("gzip");
                boolean parallel = mode.contains("parallel");
                boolean reuse = mode.contains("reused");
                second++;
                clock[0] += 1000;
                long allocatedBefore = threads.getCurrentThreadAllocatedBytes();
                for (int n = 0; n < nodes; n++) {
                    byte[] frame = feed.values(n % 16, second).getBytes();
                    store.accept(decoders[n].accept(codec.decode(frame)).orElseThrow());
                }
                if (r >= rounds / 3) { // past the warm-up, and without the 16 frames the feed encodes per second
                    ingestBytes += threads.getCurrentThreadAllocatedBytes() - allocatedBefore;
                    ingestFrames += nodes;
                }
                CountingSink sink = new CountingSink();
                long cpuStart = os.getProcessCpuTime();
                long start = System.nanoTime();
                OutputStream parallelGzip = parallel && gzip
                        ? new ParallelGzipOutputStream(sink, pool, 2 * Runtime.getRuntime().availableProcessors()) : null;
                // behind a filter the writer cannot see the gzip stream's runs: every run deflated, as before reuse
                try (OutputStream out = !gzip ? sink : !parallel ? ExpositionGzip.fastest(sink)
                        : reuse ? parallelGzip : new FilterOutputStream(parallelGzip) {
                            @Override
                            public void write(byte[] b, int off, int len) throws IOException {
                                out.write(b, off, len);
                            }
                        }) {
                    MetricsHandler.write(out, gzip ? ExpositionFormat.OPENMETRICS : ExpositionFormat.PROMETHEUS_TEXT,
                            metrics, registry, null, parallel ? pool : Runnable::run);
                }
                millis[m][r] = (System.nanoTime() - start) / 1e6;
                cpuMillis[m][r] = (os.getProcessCpuTime() - cpuStart) / 1e6;
                size[m] = sink.bytes();
                if (reuse && r >= rounds / 3) {
                    reusedBytes += metrics.deflatedRuns().reusedBytes();
                    deflatedBytes += metrics.deflatedRuns().deflatedBytes();
                }
            }
        }
        System.out.println("| exposition | wall median / max, ms | CPU median, ms | size, MiB |");
        System.out.println("|---|---|---|---|");
        for (int m = 0; m < modes.length; m++) {
            double[] wall = Arrays.copyOfRange(millis[m], rounds / 3, rounds); // first third: warm-up
            double[] cpu = Arrays.copyOfRange(cpuMillis[m], rounds / 3, rounds);
            Arrays.sort(wall);
            Arrays.sort(cpu);
            System.out.printf("| %s, %d nodes | %.0f / %.0f | %.0f | %.1f |%n", modes[m], nodes, wall[wall.length / 2],
                    wall[wall.length - 1], cpu[cpu.length / 2], size[m] / 1048576.0);
        }
        pool.shutdown();
        System.out.printf("| node series text whose deflated runs were reused from the scrape before | %.1f %% |%n",
                100.0 * reusedBytes / Math.max(1, reusedBytes + deflatedBytes));
        System.out.printf("| heap allocated per values frame decoded and stored (16 per second encoded too) | %.1f KiB |%n",
                ingestBytes / (double) ingestFrames / 1024);
    }
}
