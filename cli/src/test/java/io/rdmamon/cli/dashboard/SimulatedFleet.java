package io.rdmamon.cli.dashboard;

import io.rdmamon.agent.host.HostReader;
import io.rdmamon.agent.sim.FabricSimulator;
import io.rdmamon.agent.sim.Scenario;
import io.rdmamon.agent.sim.SimulatedNode;
import io.rdmamon.agent.sim.SimulationSpec;
import io.rdmamon.agent.stream.AgentStreamer;
import io.rdmamon.agent.stream.AgentStreamerOptions;
import io.rdmamon.collector.Collector;
import io.rdmamon.collector.CollectorConfig;
import io.rdmamon.collector.auth.Role;
import io.rdmamon.collector.auth.TokenEntry;
import io.vertx.core.Future;
import io.vertx.core.Vertx;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * A collector on loopback fed by real agent streamers that read a simulated fabric through the real
 * host reader; the simulator advances every second on its own thread.
 */
final class SimulatedFleet implements AutoCloseable {
    final Vertx vertx = Vertx.vertx();
    final FabricSimulator fabric;
    static final String AGENT_TOKEN = "agent-secret";
    static final String VIEWER_TOKEN = "viewer-secret";
    static final String OPERATOR_TOKEN = "operator-secret";
    final CollectorConfig config;
    Collector.Running collector;
    private final ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "fabric-ticker");
        t.setDaemon(true);
        return t;
    });

    SimulatedFleet(Path baseDir, int nodes, Scenario scenario) throws Exception {
        fabric = FabricSimulator.create(baseDir, SimulationSpec.of(nodes, scenario));
        CollectorConfig anyPort = CollectorConfig.defaults().withListen("127.0.0.1:0").withTokens(List.of(
                new TokenEntry(Role.AGENT, AGENT_TOKEN, null), new TokenEntry(Role.VIEWER, VIEWER_TOKEN, null),
                new TokenEntry(Role.OPERATOR, OPERATOR_TOKEN, null)));
        collector = await(Collector.start(vertx, anyPort));
        config = anyPort.withListen("127.0.0.1:" + collector.port()); // a restart comes back on the same port
        for (SimulatedNode node : fabric.nodes()) {
            HostReader reader = HostReader.forRoot(node.hostRoot());
            AgentStreamer streamer = new AgentStreamer(AgentStreamerOptions.of(baseUrl(), node.name(),
                    () -> reader.read(node.name())).withToken(AGENT_TOKEN).withBackoff(Duration.ofMillis(100), Duration.ofSeconds(1)));
            await(vertx.deployVerticle(streamer));
        }
        ticker.scheduleAtFixedRate(() -> {
            try {
                fabric.advance(Duration.ofSeconds(1));
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }, 1, 1, TimeUnit.SECONDS);
    }

    /** Stops the collector (agents and dashboards lose their connections). */
    void stopCollector() throws Exception {
        await(collector.close());
    }

    /** Starts the collector again on the same port, with an empty store. */
    void restartCollector() throws Exception {
        collector = await(Collector.start(vertx, config));
    }

    String baseUrl() {
        return "http://127.0.0.1:" + collector.port();
    }

    static <T> T await(Future<T> future) throws Exception {
        return future.toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }

    @Override
    public void close() throws Exception {
        ticker.shutdownNow();
        fabric.close();
        await(vertx.close());
    }
}
