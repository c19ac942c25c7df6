package io.rdmamon.agent.bench;

import io.rdmamon.collector.store.NodeCost;
import io.rdmamon.protocol.model.HostSample;
import io.rdmamon.protocol.wire.HostLayout;
import io.vertx.core.Vertx;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * Calibrates {@link NodeCost}: the live heap a node of a given shape costs a collector outside its rate history.
 * A collector process ({@link BenchCollector}, {@code historyPoints} 2 so that the history is negligible, a
 * heap of 2 GiB so that admission lets every node in) takes {@code --nodes} synthetic nodes ({@link SyntheticHosts}: {@code --devices} ×
 * {@code --ports} copies of a real mlx5 port, {@code --lean} for ports with only their {@code counters/}) at 1 Hz
 * for {@code --seconds}; then one {@code /metrics} scrape (the exposition cache filled) and a full GC. Reported:
 * (heap after GC − heap after GC of the idle collector) / nodes, next to the estimate.
 *
 * <pre>java -cp $CP io.rdmamon.agent.bench.NodeHeapCostBench --nodes 100 --devices 4 --ports 32 --lean</pre>
 */
public final class NodeHeapCostBench {
    private NodeHeapCostBench() {
    }

    public static void main(String[] args) throws Exception {
        int nodes = AgentVsNodeExporterBench.intOption(args, "--nodes", 100);
        int devices = AgentVsNodeExporterBench.intOption(args, "--devices", 1);
        int ports = AgentVsNodeExporterBench.intOption(args, "--ports", 8);
        int seconds = AgentVsNodeExporterBench.intOption(args, "--seconds", 20);
        boolean lean = List.of(args).contains("--lean");
        HostSample host = SyntheticHosts.of(SyntheticHosts.eightPortHost(), devices, ports, lean);
        HostLayout layout = HostLayout.of(host);
        Path config = Files.writeString(Files.createTempFile("rdmamon-cost", ".json"),
                "{\"historyPoints\": 2}");
        Path log = Files.createTempFile("rdmamon-cost-collector", ".log");
        Vertx vertx = Vertx.vertx();
        try (BenchChild collector = BenchChild.java("collector", List.of("-Xmx2g"), BenchCollector.class,
                List.of(config.toString()), log)) {
            int port = Integer.parseInt(BenchControl.fields(collector.awaitAnswer()).get("port"));
            HttpClient http = HttpClient.newHttpClient();
            HttpRequest scrape = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics"))
                    .timeout(Duration.ofSeconds(120)).build();
            http.send(scrape, HttpResponse.BodyHandlers.discarding());
            long idle = heapAfterGc(collector);
            CollectorIngestBench.FrameFeed feed = new CollectorIngestBench.FrameFeed(host);
            CollectorIngestBench.LoadCounters counters = new CollectorIngestBench.LoadCounters();
            vertx.deployVerticle(new CollectorIngestBench.LoadVerticle(port, "cost-node-%04d", nodes, 0, 1, feed,
                    counters, 50)).toCompletionStage().toCompletableFuture().get();
            for (int t = 15; t < seconds; t += 15) {
                Thread.sleep(15_000);
                http.send(scrape, HttpResponse.BodyHandlers.discarding());
                System.out.printf("  at %d s: %.1f MiB after GC%n", t, heapAfterGc(collector) / 1048576.0);
            }
            Thread.sleep((seconds % 15 == 0 ? 15 : seconds % 15) * 1000L);
            http.send(scrape, HttpResponse.BodyHandlers.discarding());
            long loaded = heapAfterGc(collector);
            heapAfterGc(collector);
            long loaded2 = heapAfterGc(collector);
            long live = Math.min(loaded, loaded2);
            System.out.printf("shape: %d devices x %d ports (%s), %d slots, hello %d bytes; %d nodes (%s); idle %.1f MiB,"
                            + " loaded %.1f MiB; per node %,d bytes measured, %,d estimated (NodeCost)%n",
                    devices, ports, lean ? "lean" : "whole", layout.slotCount(), feed.hello("x").length(), nodes,
                    collector.ask("stats"), idle / 1048576.0, live / 1048576.0, (live - idle) / nodes,
                    NodeCost.of(layout).stateBytes());
            counters.stopping = true;
        } finally {
            vertx.close().toCompletionStage().toCompletableFuture().get();
            Files.deleteIfExists(config);
        }
    }

    private static long heapAfterGc(BenchChild collector) throws java.io.IOException {
        return Long.parseLong(BenchControl.fields(collector.ask("gc")).get("heapUsed"));
    }
}
