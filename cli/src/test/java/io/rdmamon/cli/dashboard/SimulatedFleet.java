package io.rdmamon.cli.dashboard;

import io.rdmamon.agent.sim.FabricSimulator;
import io.rdmamon.agent.sim.Scenario;
import io.rdmamon.agent.sim.SimulationSpec;
import io.rdmamon.cli.daemon.DemoFleet;
import io.rdmamon.collector.Collector;
import io.rdmamon.collector.CollectorConfig;
import io.rdmamon.protocol.exposition.MetricSelection;
import io.rdmamon.collector.auth.Role;
import io.rdmamon.collector.auth.TokenEntry;

import io.vertx.core.Vertx;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static io.rdmamon.protocol.testing.Waits.await;

/**
 * A collector on loopback (agent, viewer and operator tokens) fed by a simulated fabric through the
 * demo's own wiring ({@link DemoFleet}): real agent streamers reading the simulated trees through the
 * real host reader, the simulator running its own clock, probes run by the simulated perftest.
 */
public final class SimulatedFleet implements AutoCloseable {
    private static final Duration FLEET_LIMIT = Duration.ofSeconds(30);
    public static final String AGENT_TOKEN = "agent-secret";
    public static final String VIEWER_TOKEN = "viewer-secret";
    public static final String OPERATOR_TOKEN = "operator-secret";
    private static final Duration INTERVAL = Duration.ofSeconds(1);

    private final Vertx vertx;
    /** The fleet's own Vert.x ({@link #withOwnVertx}), closed with it; else the caller's, which the caller closes. */
    private final boolean ownsVertx;
    final FabricSimulator fabric;
    private final CollectorConfig config;
    private final DemoFleet agents;
    private Collector.Running collector;
    private boolean collectorRunning;

    /** A fleet on the caller's {@code vertx}; {@link #close} stops what the fleet started, not {@code vertx}. */
    SimulatedFleet(Vertx vertx, Path baseDir, int nodes, Scenario scenario) throws Exception {
        this(vertx, false, baseDir, SimulationSpec.of(nodes, scenario), "", MetricSelection.FULL);
    }

    /**
     * A fleet beside another in the same JVM, on a Vert.x of its own that its {@link #close} closes: lone collectors
     * on one Vert.x would share its local node directory (FleetCluster.lone), so one fleet's agents would claim the
     * other's nodes.
     *
     * @param nodePrefix put before each simulated node name to form the node name the agent reports,
     *                   so that several fleets can share one Prometheus
     * @param metrics    the families the collector's /metrics renders ({@code --metrics})
     */
    public static SimulatedFleet withOwnVertx(Path baseDir, SimulationSpec spec, String nodePrefix,
                                              MetricSelection metrics) throws Exception {
        Vertx own = Vertx.vertx();
        try {
            return new SimulatedFleet(own, true, baseDir, spec, nodePrefix, metrics);
        } catch (Exception | Error e) {
            own.close();
            throw e;
        }
    }

    static SimulatedFleet withOwnVertx(Path baseDir, int nodes, Scenario scenario) throws Exception {
        return withOwnVertx(baseDir, SimulationSpec.of(nodes, scenario), "", MetricSelection.FULL);
    }

    private SimulatedFleet(Vertx vertx, boolean ownsVertx, Path baseDir, SimulationSpec spec, String nodePrefix,
                           MetricSelection metrics) throws Exception {
        this.vertx = vertx;
        this.ownsVertx = ownsVertx;
        fabric = FabricSimulator.create(baseDir, spec);
        CollectorConfig anyPort = CollectorConfig.defaults().withListen("127.0.0.1:0").withTokens(List.of(
                new TokenEntry(Role.AGENT, AGENT_TOKEN, null), new TokenEntry(Role.VIEWER, VIEWER_TOKEN, null),
                new TokenEntry(Role.OPERATOR, OPERATOR_TOKEN, null))).withMetrics(metrics).withPingmesh(DemoFleet.PINGMESH);
        collector = await(Collector.start(vertx, anyPort), FLEET_LIMIT);
        collectorRunning = true;
        config = anyPort.withListen("127.0.0.1:" + collector.port()); // a restart comes back on the same port
        agents = await(DemoFleet.start(vertx, fabric, baseUrl(), INTERVAL, nodePrefix, options -> options
                .withToken(AGENT_TOKEN).withBackoff(Duration.ofMillis(100), Duration.ofSeconds(1))));
    }

    public FabricSimulator fabric() {
        return fabric;
    }

    /** The node names the agents report (prefix + simulated node name), in node order. */
    public List<String> agentNames() {
        return agents.agentNames();
    }

    /** Stops one node's agent; the collector keeps its last sample and reports it down. */
    public void stopAgent(String agentName) throws Exception {
        await(agents.stopAgent(agentName), FLEET_LIMIT);
    }

    /** Stops the collector (agents and dashboards lose their connections). */
    public void stopCollector() throws Exception {
        await(collector.close(), FLEET_LIMIT);
        collectorRunning = false;
    }

    /** Starts the collector again on the same port, with an empty store. */
    void restartCollector() throws Exception {
        collector = await(Collector.start(vertx, config), FLEET_LIMIT);
        collectorRunning = true;
    }

    /** {@code host:port} of the collector. */
    public String address() {
        return "127.0.0.1:" + collector.port();
    }

    public String baseUrl() {
        return "http://" + address();
    }

    @Override
    public void close() throws Exception {
        try {
            await(agents.stop(), FLEET_LIMIT);
        } finally {
            fabric.close();
            try {
                if (collectorRunning) {
                    await(collector.close(), FLEET_LIMIT);
                }
            } finally {
                if (ownsVertx) {
                    await(vertx.close(), FLEET_LIMIT);
                }
            }
        }
    }
}
