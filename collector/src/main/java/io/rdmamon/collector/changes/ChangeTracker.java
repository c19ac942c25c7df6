package io.rdmamon.collector.changes;

import io.prometheus.metrics.core.metrics.CounterWithCallback;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.rdmamon.collector.diagnosis.Diagnosis;
import io.rdmamon.collector.diagnosis.engine.DiagnosisEngine;
import io.rdmamon.collector.flaps.FlapLedger;
import io.rdmamon.collector.store.KernelEventSink;
import io.rdmamon.collector.store.NodeStore;
import io.rdmamon.protocol.model.HostSample;
import io.rdmamon.protocol.model.IbDevice;
import io.rdmamon.protocol.model.IbPort;
import io.rdmamon.protocol.model.KernelEvents;
import io.rdmamon.protocol.wire.HostLayout;

import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;
import java.util.stream.Collectors;

/**
 * Feeds the {@link ChangeLog} from what the collector sees: each applied sample against the node's previous one (its
 * layout through {@link LayoutDiff}, its link counters through {@link FlapLedger#entry}, its devlink health reporters
 * through {@link ReporterTransitions}, its agent run), and the
 * diagnosis engine's active list against the one before. Exports {@code rdma_node_changes_total{node,kind}}.
 * Called on the collector's event loop; the log itself is thread-safe.
 */
public final class ChangeTracker implements KernelEventSink {
    private record DiagnosisKey(String rule, String node, String device, int port) {
        static DiagnosisKey of(Diagnosis d) {
            return new DiagnosisKey(d.rule().id(), d.node(), d.device(), d.port());
        }
    }

    private record Seen(HostLayout layout, String instance) {
    }

    private final ChangeLog log;
    private final NodeStore store;
    private final DiagnosisEngine engine;
    private final LongSupplier clock;
    private final Map<String, Seen> nodes = new HashMap<>();
    private Map<DiagnosisKey, Diagnosis> active = Map.of();
    private long diagnosesVersion;

    public ChangeTracker(ChangeLog log, NodeStore store, DiagnosisEngine engine, LongSupplier clock) {
        this.log = log;
        this.store = store;
        this.engine = engine;
        this.clock = clock;
    }

    /** {@code rdma_node_changes_total{node,kind}}: the log's entries per node and kind (docs/metrics.md). */
    public ChangeTracker register(PrometheusRegistry registry) {
        CounterWithCallback.builder().name("rdma_node_changes")
                .help("Changes entered into the fleet's change log (GET /api/events), by node and kind")
                .labelNames("node", "kind")
                .callback(cb -> log.counts().forEach((node, kinds) ->
                        kinds.forEach((kind, count) -> cb.call(count, node, kind.id()))))
                .register(registry);
        GaugeWithCallback.builder().name("rdmamon_collector_changes_held")
                .help("Entries the change log holds (GET /api/events; bounded per node and for the fleet)")
                .callback(cb -> cb.call(log.size())).register(registry);
        CounterWithCallback.builder().name("rdmamon_collector_changes_evicted")
                .help("Change log entries dropped, oldest first, to keep its bounds")
                .callback(cb -> cb.call(log.evictions())).register(registry);
        return this;
    }

    /**
     * The kernel records an agent reported for the first time (the store tells each once): one entry each, at the
     * time the agent read it, severity as the agent's pattern table judged it (an unknown one is news, {@code info}).
     */
    @Override
    public void kernelEvents(String node, List<KernelEvents.Event> fresh) {
        for (KernelEvents.Event event : fresh) {
            ChangeSeverity severity = Arrays.stream(ChangeSeverity.values())
                    .filter(s -> s.id().equals(event.severity())).findFirst().orElse(ChangeSeverity.INFO);
            log.record(new Change(event.timestampMillis(), node, event.device().isEmpty() ? null : event.device(),
                    portNumber(event.port()), ChangeKind.KERNEL_EVENT, severity, event.kind() + ": " + event.text()));
        }
    }

    /** The port the agent placed a record on; 0 (the device or node) when it named none or sent no number. */
    static int portNumber(String port) {
        try {
            return port.isEmpty() ? 0 : Math.max(0, Integer.parseInt(port));
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    /** A sample the store applied: what changed since the node's previous one, then the diagnoses it moved. */
    public void accept(HostSample sample) {
        NodeStore.LastSamples held = store.lastSamples(sample.node()).orElse(null);
        if (held == null || held.last() != sample) {
            return; // a newer sample was applied meanwhile, or the node expired
        }
        String node = sample.node();
        String instance = store.instance(node).orElse(null);
        HostLayout layout = HostLayout.of(sample);
        Seen seen = nodes.put(node, new Seen(layout, instance));
        long time = sample.timestampMillis();
        if (seen != null && seen.instance() != null && instance != null && !seen.instance().equals(instance)) {
            log.record(new Change(time, node, null, 0, ChangeKind.AGENT_RESTART, ChangeSeverity.INFO,
                    "agent restarted (run " + seen.instance() + " → " + instance + ")"));
        }
        if (seen != null && !seen.layout().equals(layout)) {
            LayoutDiff.diff(node, seen.layout(), layout, time).forEach(log::record);
        }
        if (held.previous() != null) {
            flaps(held.previous(), sample);
            ReporterTransitions.between(node, held.previous().health(), sample.health(), time).forEach(log::record);
        }
        diagnoses();
    }

    /**
     * The diagnoses raised and cleared since the last look: after every sample, and after the collector's sweep
     * (which raises agent_stale and forgets expired nodes).
     */
    public void diagnoses() {
        DiagnosisEngine.Snapshot snapshot = engine.snapshot();
        if (snapshot.version() == diagnosesVersion) {
            return;
        }
        diagnosesVersion = snapshot.version();
        Map<DiagnosisKey, Diagnosis> now = snapshot.diagnoses().stream()
                .collect(Collectors.toMap(DiagnosisKey::of, d -> d, (a, b) -> a));
        long time = clock.getAsLong();
        now.forEach((key, d) -> {
            if (!active.containsKey(key)) {
                log.record(new Change(time, d.node(), d.device(), d.port(), ChangeKind.DIAGNOSIS_RAISED,
                        ChangeSeverity.fromId(d.severity().id()), d.rule().id() + " raised: " + d.evidence()));
            }
        });
        active.forEach((key, d) -> {
            if (!now.containsKey(key)) {
                log.record(new Change(time, d.node(), d.device(), d.port(), ChangeKind.DIAGNOSIS_CLEARED,
                        ChangeSeverity.INFO, d.rule().id() + " cleared"));
            }
        });
        active = now;
    }

    /**
     * The node expired or moved to another replica: its baseline goes (a node that comes back starts a new one), its
     * counters, and its diagnoses without a "cleared" entry (the engine drops them; nothing was cleared).
     */
    public void forget(String node) {
        nodes.remove(node);
        log.forgetCounts(node);
        Map<DiagnosisKey, Diagnosis> kept = new HashMap<>(active);
        if (kept.keySet().removeIf(key -> key.node().equals(node))) {
            active = kept;
        }
    }

    private void flaps(HostSample previous, HostSample sample) {
        Map<String, IbPort> before = NodeStore.portsByKey(previous);
        for (IbDevice device : sample.devices()) {
            for (IbPort port : device.ports()) {
                IbPort was = before.get(device.name() + "/" + port.port());
                FlapLedger.Entry entry = was == null ? null : FlapLedger.entry(was, port, sample.timestampMillis());
                if (entry != null) {
                    log.record(new Change(entry.timestampMillis(), sample.node(), device.name(), port.port(),
                            ChangeKind.LINK_FLAP, ChangeSeverity.WARNING, flapText(entry)));
                }
            }
        }
    }

    private static String flapText(FlapLedger.Entry entry) {
        List<String> counters = entry.changes().stream()
                .map(c -> c.counter() + " " + c.from() + " → " + c.to() + (c.saturated() ? " (saturated)" : ""))
                .toList();
        return entry.flaps() + " flap(s)" + (entry.netdev() == null ? "" : " on " + entry.netdev())
                + ": " + String.join(", ", counters);
    }
}
