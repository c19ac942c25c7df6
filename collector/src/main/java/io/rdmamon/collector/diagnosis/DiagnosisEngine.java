package io.rdmamon.collector.diagnosis;

import io.rdmamon.collector.store.IngestIssues;
import io.rdmamon.collector.store.NodeStore;
import io.rdmamon.collector.store.NodeView;
import io.rdmamon.protocol.model.HostSample;
import io.rdmamon.protocol.model.IbDevice;
import io.rdmamon.protocol.model.IbPort;
import io.rdmamon.protocol.model.SourceStatus;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.StringJoiner;
import java.util.function.LongSupplier;

/**
 * Evaluates the rules of DESIGN.md §6 continuously: per port on every accepted sample ({@link #accept}), per
 * node on the collector's periodic sweep ({@link #sweep}, which is what notices a node that stopped sending).
 * Holds the previous sample of each node, the hysteresis of each rule at each port and the fleet's rates per
 * HCA model; the conditions themselves are {@link PortEvaluator}'s. A sample costs O(its ports).
 *
 * <p>Thread-safe: the collector calls it from its event loop; scrapes and the live feed read
 * {@link #snapshot()} from workers. The snapshot list is rebuilt (sorted) only after a change, at most once
 * per read.
 */
public final class DiagnosisEngine {
    private static final System.Logger LOG = System.getLogger(DiagnosisEngine.class.getName());
    private static final Rule[] RULES = Rule.values();
    private static final int MAX_FAILURES_IN_EVIDENCE = 3;
    /** node_name_conflict stays active while a hello for the node's name was refused within this window. */
    public static final Duration NAME_CONFLICT_WINDOW = Duration.ofMinutes(10);

    /** The active diagnoses, sorted by {@link Diagnosis#ORDER}; {@code version} changes with the list. */
    public record Snapshot(long version, List<Diagnosis> diagnoses) {
    }

    private record Key(String node, String device, int port, Rule rule) {
    }

    private static final class PortState {
        final String device;
        final int port;
        final Hysteresis[] tracks = new Hysteresis[RULES.length];
        ArrayDeque<long[]> flaps;          // {sample timestamp, events}, oldest first, within the flap window
        FleetRates.Model model;            // what this port contributes to the fleet rates; null = nothing
        long contributedRate;

        PortState(String device, int port) {
            this.device = device;
            this.port = port;
        }
    }

    private static final class NodeState {
        HostSample last;
        final Map<String, PortState> ports = new HashMap<>();
        final Hysteresis sources = new Hysteresis();
        Finding sourcesRaisedWith;
        boolean stale;
        long staleSinceMillis;
        String staleEvidence;
        double staleSeconds;
    }

    private final DiagnosisConfig config;
    private final PortEvaluator evaluator;
    private final LongSupplier clock;
    private final Map<String, NodeState> nodes = new HashMap<>();
    private final FleetRates fleetRates = new FleetRates();
    private final Map<Key, Diagnosis> active = new HashMap<>();
    private boolean dirty;
    private Snapshot snapshot = new Snapshot(0, List.of());

    public DiagnosisEngine(DiagnosisConfig config, LongSupplier clock) {
        this.config = config;
        this.evaluator = new PortEvaluator(config);
        this.clock = clock;
    }

    public DiagnosisConfig config() {
        return config;
    }

    /** Evaluates the port rules and the failing-source half of agent_stale on a sample the store accepted. */
    public synchronized void accept(HostSample sample) {
        try {
            evaluate(sample);
        } catch (RuntimeException e) {
            // one odd sample must not stop ingest: report and keep the previous state
            LOG.log(System.Logger.Level.WARNING, "diagnosis of a sample of " + sample.node() + " failed", e);
        }
    }

    private void evaluate(HostSample sample) {
        NodeState node = nodes.computeIfAbsent(sample.node(), n -> new NodeState());
        HostSample previous = node.last;
        if (previous != null && sample.timestampMillis() <= previous.timestampMillis()) {
            return;
        }
        long now = clock.getAsLong();
        long elapsed = previous == null ? 0 : sample.timestampMillis() - previous.timestampMillis();
        Map<String, IbPort> before = previous == null ? Map.of() : NodeStore.portsByKey(previous);
        Set<String> seen = new HashSet<>();
        for (IbDevice device : sample.devices()) {
            for (IbPort port : device.ports()) {
                String key = device.name() + "/" + port.port();
                seen.add(key);
                PortState state = node.ports.computeIfAbsent(key, k -> new PortState(device.name(), port.port()));
                IbPort previousPort = before.get(key);
                contribute(state, device, port);
                long recentFlaps = flaps(state, PortEvaluator.flaps(previousPort, port, elapsed), sample.timestampMillis());
                PortInput input = new PortInput(device, previousPort, port, elapsed, expectedRate(device, port), recentFlaps);
                List<Finding> findings = evaluator.evaluate(input);
                for (Rule rule : RULES) {
                    if (rule != Rule.AGENT_STALE && (!rule.fromRates() || input.hasRates())) {
                        track(sample.node(), state, rule, find(findings, rule), now);
                    }
                }
            }
        }
        for (Iterator<Map.Entry<String, PortState>> it = node.ports.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<String, PortState> entry = it.next();
            if (!seen.contains(entry.getKey())) {
                dropPort(sample.node(), entry.getValue());
                it.remove();
            }
        }
        node.last = sample;
        node.stale = false;
        Finding failing = failingSources(sample);
        if (node.sources.update(failing != null, now, config.window(Rule.AGENT_STALE)) && node.sources.active()) {
            node.sourcesRaisedWith = failing;
        }
        nodeLevel(sample.node(), node);
    }

    /**
     * The node-level half: marks stale nodes (and raises agent_stale at once; the store's staleness window
     * is its hysteresis), and forgets nodes the store no longer holds (expired), with all their diagnoses.
     */
    public synchronized void sweep(List<NodeView> views) {
        long now = clock.getAsLong();
        Set<String> present = new HashSet<>(views.size() * 2);
        for (NodeView view : views) {
            present.add(view.node());
            nameConflict(view, now);
            NodeState node = nodes.get(view.node());
            if (node == null) {
                continue;
            }
            boolean stale = view.lastSample() != null && view.stale();
            if (stale != node.stale) {
                node.stale = stale;
                if (stale) {
                    node.staleSinceMillis = now;
                    node.staleSeconds = (now - view.lastSampleMillis()) / 1000.0;
                    node.staleEvidence = String.format(Locale.ROOT,
                            "no sample for %.0f s (the agent samples every %.1f s; last sample taken %s)",
                            node.staleSeconds, view.intervalMillis() / 1000.0,
                            Instant.ofEpochMilli(view.lastSample().timestampMillis()));
                }
                nodeLevel(view.node(), node);
            }
        }
        nodes.keySet().removeIf(name -> {
            if (present.contains(name)) {
                return false;
            }
            forgetState(name, nodes.get(name));
            return true;
        });
        // a node may hold a conflict without ever having delivered a sample (no NodeState): forgotten here
        if (active.keySet().removeIf(key -> key.rule() == Rule.NODE_NAME_CONFLICT && !present.contains(key.node()))) {
            dirty = true;
        }
    }

    /** node_name_conflict: active while the store saw a refused hello for the name within {@link #NAME_CONFLICT_WINDOW}. */
    private void nameConflict(NodeView view, long now) {
        Key key = new Key(view.node(), null, 0, Rule.NODE_NAME_CONFLICT);
        IngestIssues issues = view.issues();
        Diagnosis current = active.get(key);
        boolean recent = issues.nameConflicts() > 0
                && now - issues.lastConflictMillis() <= NAME_CONFLICT_WINDOW.toMillis();
        if (!recent) {
            if (current != null) {
                active.remove(key);
                dirty = true;
            }
            return;
        }
        double refused = issues.nameConflicts();
        if (current == null || !Objects.equals(current.values().get("refusedHellos"), refused)) {
            String evidence = String.format(Locale.ROOT, "%d hello(s) for this node name refused while a live "
                    + "connection held it; last at %s: %s", issues.nameConflicts(),
                    Instant.ofEpochMilli(issues.lastConflictMillis()), issues.lastConflict());
            active.put(key, new Diagnosis(Rule.NODE_NAME_CONFLICT, view.node(), null, 0,
                    current == null ? issues.lastConflictMillis() : current.sinceMillis(), evidence,
                    Map.of("refusedHellos", refused)));
            dirty = true;
        }
    }

    /** Drops a node and every diagnosis of it (the store expired it). */
    public synchronized void forget(String node) {
        NodeState state = nodes.remove(node);
        if (state != null) {
            forgetState(node, state);
        }
    }

    /** The active diagnoses now. */
    public synchronized Snapshot snapshot() {
        if (dirty) {
            List<Diagnosis> list = new ArrayList<>(active.values());
            list.sort(Diagnosis.ORDER);
            snapshot = new Snapshot(snapshot.version() + 1, List.copyOf(list));
            dirty = false;
        }
        return snapshot;
    }

    private void forgetState(String name, NodeState state) {
        for (PortState port : state.ports.values()) {
            dropPort(name, port);
        }
        for (Rule nodeRule : List.of(Rule.AGENT_STALE, Rule.NODE_NAME_CONFLICT)) {
            if (active.remove(new Key(name, null, 0, nodeRule)) != null) {
                dirty = true;
            }
        }
    }

    private void dropPort(String node, PortState state) {
        if (state.model != null) {
            fleetRates.remove(state.model, state.contributedRate);
            state.model = null;
        }
        for (Rule rule : RULES) {
            if (state.tracks[rule.ordinal()] != null && active.remove(new Key(node, state.device, state.port, rule)) != null) {
                dirty = true;
            }
        }
    }

    private void track(String node, PortState state, Rule rule, Finding finding, long now) {
        Hysteresis track = state.tracks[rule.ordinal()];
        if (track == null) {
            if (finding == null) {
                return; // the common case: nothing found, nothing pending
            }
            track = new Hysteresis();
            state.tracks[rule.ordinal()] = track;
        }
        if (track.update(finding != null, now, config.window(rule))) {
            Key key = new Key(node, state.device, state.port, rule);
            if (track.active()) {
                active.put(key, new Diagnosis(rule, node, state.device, state.port, track.activeSinceMillis(),
                        finding.evidence(), finding.values()));
            } else {
                active.remove(key);
            }
            dirty = true;
        }
        if (track.idle()) {
            state.tracks[rule.ordinal()] = null;
        }
    }

    private void nodeLevel(String name, NodeState node) {
        Key key = new Key(name, null, 0, Rule.AGENT_STALE);
        Diagnosis current = active.get(key);
        Diagnosis wanted = null;
        if (node.stale) {
            wanted = new Diagnosis(Rule.AGENT_STALE, name, null, 0, node.staleSinceMillis, node.staleEvidence,
                    Map.of("secondsWithoutSample", node.staleSeconds));
        } else if (node.sources.active() && node.sourcesRaisedWith != null) {
            wanted = new Diagnosis(Rule.AGENT_STALE, name, null, 0, node.sources.activeSinceMillis(),
                    node.sourcesRaisedWith.evidence(), node.sourcesRaisedWith.values());
        }
        if (wanted == null && current != null) {
            active.remove(key);
            dirty = true;
        } else if (wanted != null && (current == null || !current.evidence().equals(wanted.evidence()))) {
            active.put(key, current == null ? wanted : new Diagnosis(wanted.rule(), name, null, 0,
                    Math.min(current.sinceMillis(), wanted.sinceMillis()), wanted.evidence(), wanted.values()));
            dirty = true;
        }
    }

    private static Finding failingSources(HostSample sample) {
        int failed = 0;
        StringJoiner text = new StringJoiner("; ");
        for (SourceStatus status : sample.sources()) {
            if (!status.success()) {
                if (failed++ < MAX_FAILURES_IN_EVIDENCE) {
                    text.add(status.source() + " " + status.subject() + " failed: " + status.error());
                }
            }
        }
        if (failed == 0) {
            return null;
        }
        return new Finding(Rule.AGENT_STALE, failed + " source(s) failing: " + text
                + (failed > MAX_FAILURES_IN_EVIDENCE ? "; …" : ""), Map.of("failingSources", (double) failed));
    }

    /** Keeps the fleet's per-model rate counts in step with this port (active ports of a known model only). */
    private void contribute(PortState state, IbDevice device, IbPort port) {
        boolean counts = device.hcaType() != null && port.rateBytesPerSecond() != null && port.isActive();
        FleetRates.Model model = counts ? new FleetRates.Model(device.hcaType(), port.linkLayer()) : null;
        long rate = counts ? port.rateBytesPerSecond() : 0;
        if (Objects.equals(model, state.model) && rate == state.contributedRate) {
            return;
        }
        if (state.model != null) {
            fleetRates.remove(state.model, state.contributedRate);
        }
        if (model != null) {
            fleetRates.add(model, rate);
        }
        state.model = model;
        state.contributedRate = rate;
    }

    private PortInput.ExpectedRate expectedRate(IbDevice device, IbPort port) {
        if (device.hcaType() == null) {
            return null; // eRDMA and others without a model: their rate is the instance's business
        }
        Double gbps = config.expectedRateGbps().get(device.hcaType());
        if (gbps != null) {
            return new PortInput.ExpectedRate(Math.round(gbps * 125_000_000.0), device.hcaType(), port.linkLayer(), 0, 0);
        }
        FleetRates.Modal modal = fleetRates.modal(new FleetRates.Model(device.hcaType(), port.linkLayer()),
                config.minPortsForModalRate());
        return modal == null ? null : new PortInput.ExpectedRate(modal.bytesPerSecond(), device.hcaType(),
                port.linkLayer(), modal.ports(), modal.total());
    }

    /** Records {@code events} flaps at {@code timestamp} and returns the flaps within the window. */
    private long flaps(PortState state, long events, long timestamp) {
        if (events > 0) {
            if (state.flaps == null) {
                state.flaps = new ArrayDeque<>();
            }
            state.flaps.addLast(new long[]{timestamp, events});
        }
        if (state.flaps == null) {
            return 0;
        }
        long horizon = timestamp - config.flapWindow().toMillis();
        while (!state.flaps.isEmpty() && state.flaps.peekFirst()[0] <= horizon) {
            state.flaps.removeFirst();
        }
        long total = 0;
        for (long[] entry : state.flaps) {
            total += entry[1];
        }
        if (state.flaps.isEmpty()) {
            state.flaps = null;
        }
        return total;
    }

    private static Finding find(List<Finding> findings, Rule rule) {
        for (Finding finding : findings) {
            if (finding.rule() == rule) {
                return finding;
            }
        }
        return null;
    }
}
