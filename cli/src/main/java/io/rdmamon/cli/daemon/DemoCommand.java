package io.rdmamon.cli.daemon;

import io.rdmamon.agent.sim.FabricSimulator;
import io.rdmamon.agent.sim.Scenario;
import io.rdmamon.agent.sim.SimulationSpec;
import io.rdmamon.cli.failure.CliFailure;
import io.rdmamon.collector.Collector;
import io.rdmamon.collector.CollectorConfig;
import io.rdmamon.collector.config.ConfigException;
import io.rdmamon.protocol.telemetry.ProcessTelemetry;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.time.Duration;
import java.util.concurrent.Callable;

@Command(name = "demo",
        description = {"Collector, simulated fabric and agents in one process, for a first look.",
                "No RDMA hardware needed: simulated RoCE mlx5, InfiniBand and eRDMA nodes write real",
                "sysfs/ethtool trees, and one agent per node streams them over WebSockets on loopback,",
                "all through the production code paths. Ctrl-C stops it."},
        footer = {"", "Scenarios: healthy, wrong-priority, pfc-storm, ecn-off, link-degraded, gid-missing,",
                "erdma-ratelimit, tor-uplink-loss (leaf-01's uplink drops packets: the pingmesh's",
                "latency probes show it; --nodes 8 or more), mixed, and more (docs/simulator.md).", "",
                "Example:  rdmamon demo --scenario wrong-priority --nodes 8"})
public final class DemoCommand implements Callable<Integer> {
    @Option(names = "--listen", paramLabel = "HOST:PORT", defaultValue = "127.0.0.1:" + CollectorConfig.DEFAULT_PORT,
            description = "Collector address. Default: ${DEFAULT-VALUE}.")
    String listen;

    /**
     * Simulated nodes one core keeps up with (the agents' reads, the simulator's steps and the collector's ingest):
     * on 2 cores 100 nodes at 1 s registered and kept up, 200 did not, at 1 s nor at 2 s (acknowledgements late,
     * agents reconnecting in a loop; a longer interval does not buy it back, as each node's start, heap and reader
     * thread cost the same); docs/performance.md, "Demo fleet size".
     */
    static final int NODES_PER_CORE = 50;
    /** Heap one simulated node costs, with room for garbage: 1.9 MiB live after a full GC, measured. */
    static final long HEAP_PER_NODE = 4L << 20;
    /** Heap the collector and the demo hold before any node. */
    static final long BASE_HEAP = 64L << 20;

    @Option(names = "--nodes", paramLabel = "N", defaultValue = "6",
            description = {"Simulated nodes, 1 to what this machine runs: " + NODES_PER_CORE + " per core, 4 MiB of heap each,",
                    "at most " + SimulationSpec.MAX_NODES + ". Default: ${DEFAULT-VALUE}."})
    int nodes;

    @Option(names = "--scenario", paramLabel = "NAME", defaultValue = "mixed",
            description = "What the fabric does (see below). Default: ${DEFAULT-VALUE}.")
    String scenario;

    @Option(names = "--lossless-priority", paramLabel = "P", defaultValue = "3",
            description = "Priority with PFC enabled on the simulated RoCE ports, 0..7. Default: ${DEFAULT-VALUE}.")
    int losslessPriority;

    @Option(names = "--seed", defaultValue = "1", description = "Traffic model seed. Default: ${DEFAULT-VALUE}.")
    long seed;

    @Option(names = "--interval", defaultValue = "1s", paramLabel = "DURATION", converter = DurationConverter.class,
            description = "Sampling and simulation step. Default: ${DEFAULT-VALUE}.")
    Duration interval;

    @Option(names = "--metrics", paramLabel = "SPEC", defaultValue = "full",
            description = "Families the collector's /metrics renders, as rdmamon collector --metrics. Default: ${DEFAULT-VALUE}.")
    String metrics;

    @Mixin
    LogFormatOption logFormat;

    @Override
    public Integer call() throws Exception {
        logFormat.install();
        if (interval.compareTo(Duration.ofMillis(100)) < 0) {
            throw CliFailure.badInput("--interval " + interval.toMillis() + "ms: must be at least 100ms");
        }
        SimulationSpec spec = spec();
        CollectorConfig config;
        try {
            config = CollectorConfig.defaults().withListen(listen).withMetrics(metrics, "--metrics")
                    .withPingmesh(DemoFleet.PINGMESH);
        } catch (ConfigException e) {
            throw CliFailure.badInput(e.getMessage());
        }
        FabricSimulator simulator;
        try {
            simulator = FabricSimulator.create(Files.createTempDirectory(DemoFleet.treeParent(), "rdmamon-demo-"), spec);
        } catch (IllegalArgumentException e) {
            throw CliFailure.badInput(e.getMessage());
        }
        Vertx vertx = ProcessTelemetry.process().vertx(new VertxOptions());
        try {
            Collector.Running collector = Collector.start(vertx, config).await();
            String base = "http://" + urlHost(config.listenHost()) + ":" + collector.port();
            DemoFleet.start(vertx, simulator, base, interval, "", options -> options).await();
            printWelcome(System.out, base, simulator);
        } catch (Exception e) {
            vertx.close();
            deleteTrees(simulator);
            if (e instanceof ConfigException) {
                throw CliFailure.badInput(e.getMessage());
            }
            throw CliFailure.runtime("demo failed to start on " + listen + ": " + e.getMessage(), e);
        }
        // the clock first: the agents and the collector then close on an idle machine
        return RunUntilStopped.await(vertx, () -> stopClock(simulator), () -> deleteTrees(simulator));
    }

    private static void stopClock(FabricSimulator simulator) {
        try {
            simulator.stopClock();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * The most simulated nodes this machine runs, and what bounds it.
     *
     * @param max the most nodes, at least 1
     * @param why the bound in words, for the message that refuses more
     */
    record NodeBound(int max, String why) {
    }

    /**
     * The most nodes {@code cores} keep up with ({@link #NODES_PER_CORE}), that {@code maxHeap} holds
     * ({@link #HEAP_PER_NODE} each beyond {@link #BASE_HEAP}), and the simulator takes.
     */
    static NodeBound maxNodes(int cores, long maxHeap) {
        long byCpu = (long) NODES_PER_CORE * cores;
        long byHeap = maxHeap == Long.MAX_VALUE ? Long.MAX_VALUE : Math.max(0, maxHeap - BASE_HEAP) / HEAP_PER_NODE;
        if (byHeap < byCpu && byHeap < SimulationSpec.MAX_NODES) {
            return new NodeBound((int) Math.max(1, byHeap), "a " + (maxHeap >> 20) + " MiB heap at " + (HEAP_PER_NODE >> 20)
                    + " MiB per node; a larger -Xmx in JAVA_OPTS allows more");
        }
        if (byCpu < SimulationSpec.MAX_NODES) {
            return new NodeBound((int) Math.max(1, byCpu), cores + " core" + (cores == 1 ? "" : "s") + " x "
                    + NODES_PER_CORE + " nodes per core");
        }
        return new NodeBound(SimulationSpec.MAX_NODES, "the simulator's limit");
    }

    private static void deleteTrees(FabricSimulator simulator) {
        try {
            simulator.deleteTrees();
        } catch (IOException e) {
            System.err.println("rdmamon demo: could not delete the simulated trees: " + e.getMessage());
        }
    }

    private SimulationSpec spec() {
        Scenario parsed;
        try {
            parsed = Scenario.fromCliName(scenario);
        } catch (IllegalArgumentException e) {
            throw CliFailure.badInput("--scenario: " + e.getMessage());
        }
        NodeBound bound = maxNodes(Runtime.getRuntime().availableProcessors(), Runtime.getRuntime().maxMemory());
        if (nodes < 1) {
            throw CliFailure.badInput("--nodes " + nodes + ": must be 1.." + bound.max());
        }
        if (nodes > bound.max()) {
            throw CliFailure.badInput("--nodes " + nodes + ": this machine runs at most " + bound.max()
                    + " simulated nodes (" + bound.why() + "; docs/performance.md, \"Demo fleet size\")");
        }
        if (losslessPriority < 0 || losslessPriority > 7) {
            throw CliFailure.badInput("--lossless-priority " + losslessPriority + ": must be 0..7");
        }
        return new SimulationSpec(nodes, parsed, seed, losslessPriority);
    }

    private void printWelcome(PrintStream out, String base, FabricSimulator simulator) {
        out.printf("rdmamon demo: %d simulated nodes, scenario %s, lossless priority %d%n",
                simulator.nodes().size(), scenario, losslessPriority);
        out.printf("  dashboard  %s/%n", base);
        out.printf("  metrics    %s/metrics%n", base);
        out.printf("  nodes API  %s/api/nodes%n", base);
        out.println("Ctrl-C to stop.");
        out.flush();
    }

    private static String urlHost(String host) {
        if (host.equals("0.0.0.0") || host.equals("::")) {
            return "127.0.0.1";
        }
        return CollectorCommand.hostForUrl(host);
    }
}
