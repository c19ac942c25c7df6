package io.rdmamon.agent.fabric;

import io.rdmamon.protocol.fabric.FabricNode;
import io.rdmamon.protocol.fabric.FabricPort;
import io.rdmamon.protocol.fabric.FabricSweep;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;

import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The agent's fabric role ({@code rdmamon agent --fabric}): sweeps the subnet on a worker, never the event loop,
 * every {@link FabricOptions#counterInterval()} for the counters and every {@link FabricOptions#topologyInterval()}
 * for the topology, and rediscovers at once after a sweep that suggests the topology changed: a port's
 * LinkDownedCounter rose, or a sweep had new problems (a node stopped answering). A sweep still running when the next is
 * due makes that one skipped, so sweeps never pile up. A subnet that cannot be read at all (no umad access, no
 * diags tools) is logged once, then retried quietly at the topology interval: the agent goes on sampling its host.
 */
public final class FabricSweeper extends VerticleBase {
    private static final System.Logger LOG = System.getLogger(FabricSweeper.class.getName());
    private static final String LINK_DOWNED = "LinkDownedCounter";

    /** Counts of what the sweeper did, for tests and logs. */
    public record Stats(long sweeps, long topologySweeps, long skipped, long failed) {
    }

    private final String node;
    private final FabricOptions options;
    private final FabricSink sink;
    private final Sweeps reader;
    private boolean running;
    private boolean rediscover = true;
    private long lastTopologyMillis;
    private long lastAttemptMillis = Long.MIN_VALUE;
    private boolean failing;
    private Map<String, Long> lastLinkDowned = Map.of();
    private List<String> lastProblems = List.of();
    private long sweeps;
    private long topologySweeps;
    private long skipped;
    private long failed;

    /** What sweeps: the diags reader, or a test's. */
    @FunctionalInterface
    public interface Sweeps {
        FabricSweep sweep(String sweeper, boolean rediscover) throws IOException;
    }

    public FabricSweeper(String node, FabricOptions options, Sweeps reader, FabricSink sink) {
        this.node = Objects.requireNonNull(node, "node");
        this.options = Objects.requireNonNull(options, "options");
        this.reader = Objects.requireNonNull(reader, "reader");
        this.sink = Objects.requireNonNull(sink, "sink");
    }

    /** A sweeper reading with infiniband-diags. */
    public static FabricSweeper withDiags(String node, FabricOptions options, FabricSink sink) {
        DiagsFabricReader diags = new DiagsFabricReader(options, java.time.Clock.systemUTC());
        return new FabricSweeper(node, options, diags::sweep, sink);
    }

    public synchronized Stats stats() {
        return new Stats(sweeps, topologySweeps, skipped, failed);
    }

    @Override
    public Future<?> start() {
        vertx.setPeriodic(0, options.counterInterval().toMillis(), id -> tick());
        return Future.succeededFuture();
    }

    /** On the event loop. */
    private void tick() {
        long now = System.currentTimeMillis();
        if (running) {
            synchronized (this) {
                skipped++;
            }
            return;
        }
        if (failing && now - lastAttemptMillis < options.topologyInterval().toMillis()) {
            return;
        }
        boolean topology = rediscover || now - lastTopologyMillis >= options.topologyInterval().toMillis();
        running = true;
        lastAttemptMillis = now;
        vertx.executeBlocking(() -> reader.sweep(node, topology), false)
                .onComplete(done -> {
                    running = false;
                    if (done.succeeded()) {
                        swept(done.result(), topology, now);
                    } else {
                        sweepFailed(done.cause());
                    }
                });
    }

    private void swept(FabricSweep sweep, boolean topology, long startedMillis) {
        if (failing) {
            LOG.log(System.Logger.Level.INFO, "fabric: sweeping again ({0} nodes)", sweep.nodes().size());
            failing = false;
        }
        if (sweep.topology()) {
            lastTopologyMillis = startedMillis;
        }
        Map<String, Long> linkDowned = linkDowned(sweep.nodes());
        // a node that stopped answering makes one rediscovery, not one every sweep while it stays silent
        rediscover = !sweep.success() && !sweep.problems().equals(lastProblems) || linkDownedRose(linkDowned);
        lastLinkDowned = linkDowned;
        lastProblems = sweep.problems();
        synchronized (this) {
            sweeps++;
            topologySweeps += topology ? 1 : 0;
        }
        sink.accept(sweep);
    }

    private void sweepFailed(Throwable cause) {
        synchronized (this) {
            failed++;
        }
        rediscover = true;
        if (!failing) {
            // once: a host without umad access or the tools says so and goes on sampling
            LOG.log(System.Logger.Level.WARNING, "fabric: cannot sweep the InfiniBand subnet, retrying every {0} s: "
                    + "{1}", options.topologyInterval().toSeconds(), cause.getMessage());
            failing = true;
        }
    }

    private boolean linkDownedRose(Map<String, Long> now) {
        return now.entrySet().stream().anyMatch(e -> {
            Long before = lastLinkDowned.get(e.getKey());
            return before != null && !before.equals(e.getValue());
        });
    }

    private static Map<String, Long> linkDowned(List<FabricNode> nodes) {
        Map<String, Long> counts = new HashMap<>();
        for (FabricNode n : nodes) {
            for (FabricPort p : n.ports()) {
                Long value = p.counters().get(LINK_DOWNED);
                if (value != null) {
                    counts.put(n.guid() + "/" + p.number(), value);
                }
            }
        }
        return counts;
    }
}
