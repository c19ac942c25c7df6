package io.rdmamon.collector.pingmesh;

import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.rdmamon.collector.probe.ProbeConfig;
import io.rdmamon.collector.probe.ProbeNodes;
import io.rdmamon.collector.probe.ProbeOrchestrator;
import io.rdmamon.collector.probe.ProbeOutcomes;
import io.rdmamon.collector.store.NodeStore;
import io.rdmamon.protocol.testing.FixtureHosts;
import io.vertx.core.Context;
import io.vertx.core.Vertx;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * A pingmesh over scripted agents ({@link FakeMeshAgents}) through a real orchestrator: golden hosts {@code n1} …
 * (a RoCE port and an eRDMA port each), {@code n1}, {@code n2} in rack-a and {@code n3}, {@code n4} in rack-b; a round
 * probes each port's rack peer in slot 0 and one port of the other rack in slot 1.
 */
final class MeshFixture {
    final Context context;
    final NodeStore store = new NodeStore(System::currentTimeMillis, 3, 600_000, 10, 100);
    final FakeMeshAgents agents;
    final PrometheusRegistry registry = new PrometheusRegistry();
    final ProbeOrchestrator orchestrator;
    final Pingmesh pingmesh;

    MeshFixture(Vertx vertx) {
        this(vertx, ProbeConfig.defaults());
    }

    MeshFixture(Vertx vertx, ProbeConfig probes) {
        this(vertx, probes, 8);
    }

    /** {@code probeTimeoutSeconds}: the pingmesh's {@code probeTimeoutSeconds} (8 in the others). */
    MeshFixture(Vertx vertx, ProbeConfig probes, int probeTimeoutSeconds) {
        context = vertx.getOrCreateContext();
        agents = new FakeMeshAgents(context);
        orchestrator = new ProbeOrchestrator(vertx, probes, ProbeNodes.of(store), agents,
                new ProbeOutcomes(), registry, Duration.ofSeconds(10));
        agents.orchestrator = orchestrator;
        PingmeshConfig config = new PingmeshConfig(true, 2, 60, 20, 1, 1, 3, 14, probeTimeoutSeconds, 0.5, List.of(
                GroupRule.of("rack-a", List.of("n1", "n2"), "rack-a"), GroupRule.of("rack-b", List.of("n3", "n4"), "rack-b")));
        pingmesh = new Pingmesh(vertx, config, store, agents, orchestrator, new PortGroups(config.groups()),
                new PingmeshResults(config.window(), config.lossRttSeconds()), () -> null, registry,
                System::currentTimeMillis);
    }

    /** Nodes n1, n2, … answering as {@code behaviours} say. */
    void nodes(FakeMeshAgents.Behaviour... behaviours) {
        for (int i = 0; i < behaviours.length; i++) {
            String node = "n" + (i + 1);
            store.connect(node, "test", 1000);
            store.accept(FixtureHosts.golden(node, System.currentTimeMillis(), 1));
            agents.node(node, behaviours[i]);
        }
    }

    <T> T onContext(Callable<T> action) throws Exception {
        CompletableFuture<T> result = new CompletableFuture<>();
        context.runOnContext(v -> {
            try {
                result.complete(action.call());
            } catch (Exception | AssertionError e) {
                result.completeExceptionally(e);
            }
        });
        return result.get(10, TimeUnit.SECONDS);
    }

    void round(long number) throws Exception {
        onContext(() -> {
            pingmesh.round(number);
            return null;
        });
    }

    /** {@code rdmamon_collector_pingmesh_probes_total{outcome}}. */
    double outcomes(String outcome) {
        return registry.scrape().stream().filter(s -> s.getMetadata().getName().equals("rdmamon_collector_pingmesh_probes"))
                .flatMap(s -> s.getDataPoints().stream())
                .filter(p -> p.getLabels().get("outcome").equals(outcome))
                .mapToDouble(p -> ((CounterSnapshot.CounterDataPointSnapshot) p).getValue())
                .sum();
    }

    double ended() {
        return outcomes("ok") + outcomes("failed") + outcomes("untimed") + outcomes("skipped");
    }
}
