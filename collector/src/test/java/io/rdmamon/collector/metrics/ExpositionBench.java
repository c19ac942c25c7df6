package io.rdmamon.collector.metrics;

import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.rdmamon.collector.http.MetricsHandler;
import io.rdmamon.collector.store.NodeStore;
import io.rdmamon.protocol.exposition.ExpositionFormat;
import io.rdmamon.protocol.testing.FixtureHosts;

import java.io.IOException;
import java.io.OutputStream;
import java.util.Arrays;
import java.util.zip.Deflater;
import java.util.zip.GZIPOutputStream;

/**
 * Micro-benchmark of one {@code /metrics} exposition without HTTP (a main, not a test): a store of
 * {@code --nodes} fixture hosts (3 ports each), then per round either every node has a new sample (full
 * render) or none has (cached chunks only), written to a counting stream, to gzip level 1, and to gzip at
 * the default level 6. Reports the median wall time per exposition and the sizes.
 *
 * <p>{@code java -cp $CP io.rdmamon.collector.metrics.ExpositionBench --nodes 2000 --rounds 15}
 */
public final class ExpositionBench {
    private ExpositionBench() {
    }

    public static void main(String[] args) throws IOException {
        int nodes = intOption(args, "--nodes", 2000);
        int rounds = intOption(args, "--rounds", 15);
        long[] clock = {1_700_000_000_000L};
        NodeStore store = new NodeStore(() -> clock[0], 3, Long.MAX_VALUE, 2, nodes);
        for (int n = 0; n < nodes; n++) {
            store.connect("node-" + n, "1.0", 1000);
        }
        RdmaMetrics metrics = new RdmaMetrics(store);
        PrometheusRegistry registry = new PrometheusRegistry();
        long step = 1;
        for (String mode : new String[] {"full render, plain", "cached, plain", "full render, gzip 1", "full render, gzip 6"}) {
            double[] millis = new double[rounds];
            long size = 0;
            for (int r = 0; r < rounds; r++) {
                if (!mode.startsWith("cached") || r == 0) {
                    step++;
                    clock[0] += 1000;
                    for (int n = 0; n < nodes; n++) {
                        store.accept(FixtureHosts.golden("node-" + n, clock[0], step + n));
                    }
                }
                CountingSink sink = new CountingSink();
                long start = System.nanoTime();
                OutputStream out = mode.endsWith("gzip 1") ? gzip(sink, Deflater.BEST_SPEED)
                        : mode.endsWith("gzip 6") ? gzip(sink, Deflater.DEFAULT_COMPRESSION) : sink;
                MetricsHandler.write(out, ExpositionFormat.PROMETHEUS_TEXT, metrics, registry);
                out.close();
                millis[r] = (System.nanoTime() - start) / 1e6;
                size = sink.bytes();
            }
            double[] measured = Arrays.copyOfRange(millis, rounds / 3, rounds); // first third: warm-up
            Arrays.sort(measured);
            System.out.printf("| %s | %d nodes | %.0f ms median | %.0f ms max | %.1f MiB |%n", mode, nodes,
                    measured[measured.length / 2], measured[measured.length - 1], size / 1048576.0);
        }
    }

    private static OutputStream gzip(OutputStream out, int level) throws IOException {
        return new GZIPOutputStream(out, 64 * 1024) {
            {
                def.setLevel(level);
            }
        };
    }

    private static int intOption(String[] args, String name, int fallback) {
        for (int i = 0; i + 1 < args.length; i++) {
            if (args[i].equals(name)) {
                return Integer.parseInt(args[i + 1]);
            }
        }
        return fallback;
    }
}
