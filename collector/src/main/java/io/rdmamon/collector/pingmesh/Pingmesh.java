package io.rdmamon.collector.pingmesh;

import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.rdmamon.collector.ingest.AgentLinks;
import io.rdmamon.collector.model.PortKey;
import io.rdmamon.collector.model.QosProfile;
import io.rdmamon.collector.probe.Endpoint;
import io.rdmamon.collector.probe.LatencyProbe;
import io.rdmamon.collector.probe.ProbeOrchestrator;
import io.rdmamon.collector.probe.ProbeRefused;
import io.rdmamon.collector.probe.ProbeState;
import io.rdmamon.collector.probe.SystemProbeEnd;
import io.rdmamon.collector.store.NodeStore;
import io.rdmamon.collector.store.NodeView;
import io.rdmamon.protocol.model.HostSample;
import io.rdmamon.protocol.model.IbDevice;
import io.rdmamon.protocol.model.IbPort;
import io.rdmamon.protocol.wire.Frame;
import io.vertx.core.Vertx;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * The pingmesh service (docs/pingmesh.md): every {@code roundSeconds} it takes the ACTIVE ports of the connected
 * agents that allow the pingmesh, plans a round ({@link PingmeshPlanner}) and starts its probes slot by slot, a slot
 * every {@code roundSeconds / slots}, each probe through the {@link ProbeOrchestrator} as a system probe (server
 * first, then client; the whole within {@code probeTimeoutSeconds}). A probe whose client port is still the client of
 * an earlier probe, whose server port already serves {@code maxServerPerPort}, or with a port in an operator's
 * bandwidth probe is skipped. The round number the planner gets moves on only when a round started a probe: where
 * probes outlast a round, every other round finds all its ports busy, and a number taken from the clock would then
 * always drop the same offsets (in the Soft-RoCE lab, half the ordered pairs were never probed). How each probe ended
 * goes to {@link PingmeshResults}; one debug line sums each round up.
 *
 * <p>Confined to the collector verticle's event loop, like the orchestrator. In a cluster each replica probes
 * between the agents it holds.
 */
public final class Pingmesh {
    private static final System.Logger LOG = System.getLogger(Pingmesh.class.getName());
    private final Vertx vertx;
    private final PingmeshConfig config;
    private final NodeStore store;
    private final AgentLinks agents;
    private final ProbeOrchestrator orchestrator;
    private final PortGroups groups;
    private final Supplier<QosProfile> configuredQos;
    private final LongSupplier clock;
    private final PingmeshResults results;
    private final PathCounters counters;
    private final Counter outcomes;
    private final Map<PortKey, String> clientOf = new HashMap<>();
    private final Map<PortKey, Integer> serving = new HashMap<>();
    private final List<Long> timers = new ArrayList<>();
    private volatile Mesh mesh = new Mesh(List.of(), Map.of());
    private final Map<String, Integer> roundOutcomes = new LinkedHashMap<>();
    private long periodic = -1;
    /** The number the next round is planned with: rounds that started a probe so far. */
    private long nextRound;

    /** The ports of the last round and where each group came from. */
    public record Mesh(List<MeshPort> ports, Map<String, PortGroups.Source> groupSources) {
    }

    /**
     * @param results       where the probes' outcomes go (the metrics read them too)
     * @param configuredQos the configured fleet QoS profile ({@code diagnosis.qosProfile}); null when none
     * @param registry      where {@code rdmamon_collector_pingmesh_probes_total} is registered
     */
    public Pingmesh(Vertx vertx, PingmeshConfig config, NodeStore store, AgentLinks agents,
                    ProbeOrchestrator orchestrator, PortGroups groups, PingmeshResults results,
                    Supplier<QosProfile> configuredQos, PrometheusRegistry registry, LongSupplier clock) {
        this.vertx = vertx;
        this.config = config;
        this.store = store;
        this.agents = agents;
        this.orchestrator = orchestrator;
        this.groups = groups;
        this.configuredQos = configuredQos;
        this.clock = clock;
        this.results = results;
        this.counters = new PathCounters(config.window().toMillis());
        this.outcomes = Counter.builder().name("rdmamon_collector_pingmesh_probes")
                .help("Pingmesh probes by outcome: ok (round trips measured), failed (the client never got through "
                        + "after its server listened), timeout (it outlived its timeout after its server listened), "
                        + "untimed (the exchanges completed but perftest could not time them), skipped (not run: an "
                        + "agent refused, a port was busy)")
                .labelNames("outcome").register(registry);
    }

    public PingmeshConfig config() {
        return config;
    }

    public PingmeshResults results() {
        return results;
    }

    /** The last round's ports and groups (thread-safe: a snapshot). */
    public Mesh mesh() {
        return mesh;
    }

    /** How much each path counter of {@code port} rose over the window ({@link PathCounters}). */
    public Map<String, Long> counterDeltas(PortKey port) {
        return counters.deltas(port);
    }

    /** The number the next round will be planned with. */
    long nextRound() {
        return nextRound;
    }

    /** Plans a round now and every {@code roundSeconds}; nothing when the pingmesh is disabled. */
    public void start() {
        if (!config.enabled()) {
            return;
        }
        periodic = vertx.setPeriodic(1, config.round().toMillis(), t -> round(nextRound));
    }

    /** Stops planning; the probes running end by themselves within their timeout. */
    public void stop() {
        vertx.cancelTimer(periodic);
        timers.forEach(vertx::cancelTimer);
        timers.clear();
    }

    /**
     * Plans round {@code number} over the ports now and starts its probes, slot by slot; the next round is planned
     * with {@code number + 1} when a probe of the first slot started (or it had none), else with {@code number} again.
     */
    void round(long number) {
        long now = clock.getAsLong();
        if (!roundOutcomes.isEmpty()) {
            LOG.log(System.Logger.Level.DEBUG, "pingmesh: previous round ended {0}", roundOutcomes);
            roundOutcomes.clear();
        }
        timers.clear();
        results.expire(now);
        Map<String, PortGroups.Source> sources = new LinkedHashMap<>();
        Map<PortKey, MeshPort> ports = new LinkedHashMap<>();
        List<LosslessTrafficClass.RocePort> roce = new ArrayList<>();
        for (NodeView view : store.nodes()) {
            HostSample sample = view.lastSample();
            if (sample == null || !agents.connected(view.node())
                    || !agents.accepts(view.node(), Frame.Hello.CAPABILITY_PINGMESH)) {
                continue;
            }
            for (IbDevice device : sample.devices()) {
                for (IbPort port : device.ports()) {
                    Fabric fabric = Fabric.of(device, port);
                    if (!port.isActive() || fabric == null) {
                        continue;
                    }
                    PortGroups.Group group = groups.of(view.node(), device, port);
                    PortKey key = new PortKey(view.node(), device.name(), port.port());
                    ports.put(key, new MeshPort(key, fabric, group.name()));
                    sources.putIfAbsent(group.name(), group.source());
                    counters.record(key, port, sample.timestampMillis());
                    if (fabric == Fabric.ROCE) {
                        roce.add(new LosslessTrafficClass.RocePort(sample, port));
                    }
                }
            }
        }
        counters.retain(ports.keySet());
        mesh = new Mesh(List.copyOf(ports.values()), Map.copyOf(sources));
        Integer trafficClass = LosslessTrafficClass.of(configuredQos.get(), roce);
        List<PlannedProbe> plan = PingmeshPlanner.plan(number, List.copyOf(ports.values()), config.budget());
        LOG.log(System.Logger.Level.DEBUG, "pingmesh round {0}: {1} ports in {2} groups, {3} probes, traffic class {4}",
                number, ports.size(), sources.size(), plan.size(), trafficClass);
        nextRound = number + 1;
        long slotMillis = config.round().toMillis() / config.budget().slots();
        for (int slot = 0; slot < config.budget().slots(); slot++) {
            int thisSlot = slot;
            List<PlannedProbe> inSlot = plan.stream().filter(p -> p.slot() == thisSlot).toList();
            if (inSlot.isEmpty()) {
                continue;
            }
            if (slot == 0) {
                int started = 0;
                for (PlannedProbe probe : inSlot) {
                    started += start(probe, ports, trafficClass) ? 1 : 0;
                }
                if (started == 0) {
                    nextRound = number;
                    LOG.log(System.Logger.Level.DEBUG, "pingmesh round {0}: every port busy, planned again next", number);
                    return;
                }
            } else {
                timers.add(vertx.setTimer(slot * slotMillis, t -> inSlot.forEach(p -> start(p, ports, trafficClass))));
            }
        }
    }

    /** Starts the probe; false when it was skipped. */
    private boolean start(PlannedProbe planned, Map<PortKey, MeshPort> ports, Integer trafficClass) {
        MeshPort src = ports.get(planned.src());
        MeshPort dst = ports.get(planned.dst());
        Endpoint source = endpoint(src.key());
        Endpoint destination = endpoint(dst.key());
        String busy = busy(source, destination, src.key(), dst.key());
        if (busy != null) {
            skipped(src, dst, busy);
            return false;
        }
        LatencyProbe probe = new LatencyProbe(source, destination, PingmeshConfig.SIZE_BYTES, config.iterations(),
                config.qpTimeout(), src.fabric() == Fabric.ROCE ? trafficClass : null, config.probeTimeout());
        String id;
        try {
            id = orchestrator.startSystem(probe, end -> ended(src, dst, end));
        } catch (ProbeRefused e) {
            skipped(src, dst, e.getMessage());
            return false;
        }
        clientOf.put(src.key(), id);
        serving.merge(dst.key(), 1, Integer::sum);
        return true;
    }

    /** Why the pair cannot be probed now; null when it can. */
    private String busy(Endpoint source, Endpoint destination, PortKey src, PortKey dst) {
        for (Endpoint port : List.of(source, destination)) {
            if (orchestrator.inOperatorProbe(port)) {
                return "port " + port + " is in an operator's probe";
            }
        }
        if (clientOf.containsKey(src)) {
            return "port " + source + " is still the client of " + clientOf.get(src);
        }
        if (serving.getOrDefault(dst, 0) >= config.maxServerPerPort()) {
            return "port " + destination + " already serves " + config.maxServerPerPort() + " probes";
        }
        return null;
    }

    private void ended(MeshPort src, MeshPort dst, SystemProbeEnd end) {
        clientOf.remove(src.key(), end.id());
        serving.computeIfPresent(dst.key(), (k, n) -> n > 1 ? n - 1 : null);
        if (end.state() == ProbeState.DONE && end.latency().untimed() != null) {
            // the path answered every exchange; the client's host could not time them, which says nothing of the path
            results.skipped(src, dst, end.finishedMillis(), src.key().node() + ": " + end.latency().untimed());
            count("untimed");
        } else if (end.state() == ProbeState.DONE) {
            results.completed(src, dst, end.finishedMillis(), end.latency().rttNanos());
            count("ok");
        } else if (end.state() == ProbeState.FAILED && end.serverListened() && !end.refused()) {
            results.unreachable(src, dst, end.finishedMillis(), config.iterations(), end.timedOut(), end.error());
            count(end.timedOut() ? "timeout" : "failed");
        } else {
            results.skipped(src, dst, end.finishedMillis(), end.error());
            count("skipped");
        }
    }

    private void skipped(MeshPort src, MeshPort dst, String reason) {
        results.skipped(src, dst, clock.getAsLong(), reason);
        count("skipped");
    }

    private void count(String outcome) {
        outcomes.labelValues(outcome).inc();
        roundOutcomes.merge(outcome, 1, Integer::sum);
    }

    private static Endpoint endpoint(PortKey key) {
        return new Endpoint(key.node(), key.device(), key.port());
    }
}
