package io.rdmamon.cli.daemon;

import io.rdmamon.agent.daemon.AgentDaemon;
import io.rdmamon.agent.daemon.AgentDaemonOptions;
import io.rdmamon.agent.host.HostReader;
import io.rdmamon.agent.host.HostRootException;
import io.rdmamon.agent.probe.ProbeSettings;
import io.rdmamon.agent.sim.FabricSimulator;
import io.rdmamon.agent.sim.SimulatedNode;
import io.rdmamon.agent.sim.perftest.SimulatedPerftestFabric;
import io.rdmamon.agent.stream.AgentStreamerOptions;
import io.rdmamon.collector.pingmesh.PingmeshConfig;
import io.rdmamon.protocol.probe.PerftestTest;
import io.vertx.core.Future;
import io.vertx.core.Vertx;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * The demo's wiring of a simulated fabric to a collector: the simulator runs its clock, and one
 * {@link AgentDaemon} per simulated node streams what the real {@link HostReader} reads from that
 * node's tree. Every agent runs probes, bandwidth and the pingmesh's latency ones, through one in-process simulated
 * perftest, which rendezvouses the simulated nodes by TCP port and plays the scenario's paths. {@code rdmamon demo} runs it; tests reuse it so they exercise the
 * exact demo path.
 */
public final class DemoFleet {
    /**
     * The pingmesh of a collector whose fleet is simulated: a round every 3 s over a 30 s window, two peers of the
     * group and two other groups a round. The simulated perftest runs in-process and costs next to nothing, so the
     * demo's matrix fills and its tor-uplink-loss verdict forms within a minute, where the hardware defaults (a 15 s
     * round, sized for perftest processes) would take several.
     */
    public static final PingmeshConfig PINGMESH = new PingmeshConfig(true, 3, 30, 20, 2, 2,
            PingmeshConfig.MAX_SERVER_PER_PORT, 14, 8, 0.5, List.of());
    private static final Path TMPFS = Path.of("/dev/shm");

    private final Vertx vertx;
    private final FabricSimulator simulator;
    /** Agent node name to the deployment id of its daemon, in node order. */
    private final Map<String, String> agents;

    private DemoFleet(Vertx vertx, FabricSimulator simulator, Map<String, String> agents) {
        this.vertx = vertx;
        this.simulator = simulator;
        this.agents = agents;
    }

    /**
     * Starts the simulator's clock and one agent per node streaming towards {@code collectorUrl}.
     *
     * @param nodePrefix put before every simulated node name to form the agent's node name ("" in the
     *                   demo); lets several simulated fleets report to one Prometheus without clashing
     * @param options    adjusts each streamer's options (token, backoff), identity in the demo
     */
    public static Future<DemoFleet> start(Vertx vertx, FabricSimulator simulator, String collectorUrl, Duration interval,
                                          String nodePrefix, UnaryOperator<AgentStreamerOptions> options) {
        List<HostReader> readers = new ArrayList<>();
        for (SimulatedNode node : simulator.nodes()) {
            try {
                readers.add(simulator.reader(node));
            } catch (HostRootException e) {
                return Future.failedFuture(e);
            }
        }
        simulator.startClock(interval,
                e -> System.err.println("rdmamon demo: simulator step failed: " + e.getMessage()));
        SimulatedPerftestFabric perftest = new SimulatedPerftestFabric(simulator);
        List<String> names = new ArrayList<>();
        List<Future<String>> deployments = new ArrayList<>();
        for (int i = 0; i < readers.size(); i++) {
            String name = nodePrefix + simulator.nodes().get(i).name();
            HostReader reader = readers.get(i);
            Path hostRoot = simulator.nodes().get(i).hostRoot();
            // as if started with --allow-probes --allow-pingmesh
            ProbeSettings probes = new ProbeSettings(EnumSet.allOf(PerftestTest.class), perftest.launcherFor(hostRoot),
                    hostRoot, ProbeSettings.DEFAULT_MAX_DURATION);
            names.add(name);
            AgentStreamerOptions streamer = options.apply(AgentStreamerOptions.of(collectorUrl, name)
                    .withInterval(interval).withProbes(probes));
            deployments.add(vertx.deployVerticle(new AgentDaemon(AgentDaemonOptions
                    .of(name, interval, () -> reader.read(name)).withStreamer(streamer))));
        }
        return Future.all(deployments).map(all -> {
            Map<String, String> agents = new LinkedHashMap<>();
            for (int i = 0; i < names.size(); i++) {
                agents.put(names.get(i), deployments.get(i).result());
            }
            return new DemoFleet(vertx, simulator, agents);
        }).onFailure(e -> stopClock(simulator));
    }

    /** The node names the agents report, in node order. */
    public synchronized List<String> agentNames() {
        return List.copyOf(agents.keySet());
    }

    /** Stops one node's agent, as if it crashed: the collector stops hearing from it. */
    public synchronized Future<Void> stopAgent(String agentName) {
        String id = agents.remove(agentName);
        if (id == null) {
            return Future.failedFuture(new IllegalArgumentException("no running agent for node '" + agentName + "'"));
        }
        return vertx.undeploy(id);
    }

    /** Stops the simulator's clock (waiting for a step under way: call it off the event loop) and every agent. */
    public synchronized Future<Void> stop() {
        stopClock(simulator);
        List<Future<Void>> undeployed = new ArrayList<>();
        for (String name : List.copyOf(agents.keySet())) {
            undeployed.add(stopAgent(name));
        }
        return Future.all(undeployed).mapEmpty();
    }

    /** The simulator rewrites thousands of small files a second: keep them in memory when tmpfs is there. */
    public static Path treeParent() {
        return Files.isDirectory(TMPFS) && Files.isWritable(TMPFS) ? TMPFS : Path.of(System.getProperty("java.io.tmpdir"));
    }

    private static void stopClock(FabricSimulator simulator) {
        try {
            simulator.stopClock();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
