package io.rdmamon.collector.diagnosis.engine;

import io.rdmamon.collector.diagnosis.Diagnosis;
import io.rdmamon.collector.diagnosis.DiagnosisConfig;
import io.rdmamon.collector.diagnosis.Finding;
import io.rdmamon.collector.diagnosis.KernelNews;
import io.rdmamon.collector.diagnosis.PathContext;
import io.rdmamon.collector.diagnosis.PathVerdicts;
import io.rdmamon.collector.diagnosis.PortInput;
import io.rdmamon.collector.diagnosis.PortQos;
import io.rdmamon.collector.diagnosis.PortRule;
import io.rdmamon.collector.diagnosis.RxPowerBaseline;
import io.rdmamon.collector.diagnosis.rules.LinkDegraded;
import io.rdmamon.collector.diagnosis.rules.RuleTable;
import io.rdmamon.collector.flaps.FlapLedger;
import io.rdmamon.collector.flaps.PortFlaps;
import io.rdmamon.collector.model.PathVerdict;
import io.rdmamon.collector.model.PortKey;
import io.rdmamon.collector.model.QosProfile;
import io.rdmamon.collector.model.Rule;
import io.rdmamon.collector.store.NodeStore;
import io.rdmamon.collector.store.NodeView;
import io.rdmamon.protocol.model.HostSample;
import io.rdmamon.protocol.model.IbDevice;
import io.rdmamon.protocol.model.IbPort;
import io.rdmamon.protocol.model.PciFunction;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.LongSupplier;

/**
 * Evaluates the rules of docs/architecture.md "Rule ids" continuously: per port on every accepted sample ({@link
 * #accept}), per
 * node on the collector's periodic sweep ({@link #sweep}, which is what notices a node that stopped sending).
 * Holds the hysteresis of each rule at each port and the fleet's rates per HCA model; the conditions themselves
 * are the rule classes of {@link RuleTable}. The samples are the {@link NodeStore}'s: a sample's previous one is
 * read there, not kept here. A sample costs O(its ports).
 *
 * <p>Thread-safe: the collector calls it from its event loop; scrapes and the live feed read
 * {@link #snapshot()} from workers. The snapshot list is rebuilt (sorted) only after a change, at most once
 * per read. Lock order: this engine, then the store (which never calls back), so the two cannot deadlock.
 */
public final class DiagnosisEngine {
    private static final System.Logger LOG = System.getLogger(DiagnosisEngine.class.getName());
    private static final Rule[] RULES = Rule.values();
    /** Entries one port's flap ledger keeps at most: a day of a port that flaps every few minutes. */
    static final int MAX_LEDGER_ENTRIES = 512;

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
        final FlapLedger ledger = new FlapLedger(MAX_LEDGER_ENTRIES);
        RxPowerBaseline rxBaseline;        // created at the first sample with a module; null = no module seen
        FleetRates.Model model;            // what this port contributes to the fleet rates; null = nothing
        long contributedRate;
        QosProfile qosProfile;             // what this port contributes to the fleet's QoS majority; null = nothing
        PortQos portQos;                   // the QoS rules' view of the port, kept while its configuration is unchanged
        String hits = "";                  // the workloads on the port in this sample, for every rule's evidence

        PortState(String device, int port) {
            this.device = device;
            this.port = port;
        }
    }

    private static final class NodeState {
        final Map<String, PortState> ports = new HashMap<>();
        final Hysteresis sources = new Hysteresis();
        Finding sourcesRaisedWith;
        Finding staleWith;                 // agent_stale's staleness finding when the node turned stale; null = fresh
        long staleSinceMillis;
        final TopologyLedger topology = new TopologyLedger();
    }

    private final DiagnosisConfig config;
    private final NodeStore store;
    private final LongSupplier clock;
    private final PathVerdicts pathVerdicts;
    private final Map<String, NodeState> nodes = new HashMap<>();
    private final FleetRates fleetRates = new FleetRates();
    private final QosFleet qosFleet = new QosFleet();
    private final Map<Key, Diagnosis> active = new HashMap<>();
    private boolean dirty;
    private Snapshot snapshot = new Snapshot(0, List.of());

    /** {@code store}: where the samples this engine is given are held, and their previous ones read. */
    public DiagnosisEngine(DiagnosisConfig config, NodeStore store, LongSupplier clock) {
        this(config, store, clock, PathVerdicts.NONE);
    }

    /** Also judges the path rules on the pingmesh's verdicts ({@code pathVerdicts}, read once per port per sample). */
    public DiagnosisEngine(DiagnosisConfig config, NodeStore store, LongSupplier clock, PathVerdicts pathVerdicts) {
        this.config = config;
        this.store = store;
        this.clock = clock;
        this.pathVerdicts = pathVerdicts;
    }

    public DiagnosisConfig config() {
        return config;
    }

    /**
     * Evaluates the port rules and the failing-source half of agent_stale on a sample the store applied, against
     * the sample the store applied before it. A sample the store no longer holds as the node's newest is skipped:
     * a newer one was applied meanwhile (and is evaluated by its own call), or the node expired.
     */
    public synchronized void accept(HostSample sample) {
        try {
            evaluate(sample);
        } catch (RuntimeException e) {
            // one odd sample must not stop ingest: report and keep the previous state
            LOG.log(System.Logger.Level.WARNING, "diagnosis of a sample of " + sample.node() + " failed", e);
        }
    }

    private void evaluate(HostSample sample) {
        Optional<NodeStore.LastSamples> held = store.lastSamples(sample.node());
        if (held.isEmpty() || held.get().last() != sample) {
            return;
        }
        HostSample previous = held.get().previous();
        if (previous != null && sample.timestampMillis() <= previous.timestampMillis()) {
            return; // stamped no later than the sample before it (the agent's clock stepped back): nothing to rate
        }
        NodeState node = nodes.computeIfAbsent(sample.node(), n -> new NodeState());
        node.topology.observe(sample.topology(), sample.timestampMillis());
        long now = clock.getAsLong();
        long elapsed = previous == null ? 0 : sample.timestampMillis() - previous.timestampMillis();
        Map<String, IbPort> before = previous == null ? Map.of() : NodeStore.portsByKey(previous);
        Map<String, PciFunction> pciBefore = previous == null ? Map.of() : pciByDevice(previous);
        Set<String> seen = new HashSet<>();
        for (IbDevice device : sample.devices()) {
            for (IbPort port : device.ports()) {
                String key = device.name() + "/" + port.port();
                seen.add(key);
                PortState state = node.ports.computeIfAbsent(key, k -> new PortState(device.name(), port.port()));
                IbPort previousPort = before.get(key);
                state.hits = WorkloadHits.of(device, port.port());
                contribute(state, device, port);
                state.portQos = PortQos.reuse(state.portQos, device, port, sample.ncclConf());
                contributeQos(state, port);
                long recentFlaps = flaps(state, LinkDegraded.flaps(previousPort, port, elapsed), sample.timestampMillis());
                PortInput input = new PortInput(device, previousPort, port, elapsed, expectedRate(device, port), recentFlaps,
                        ledger(state, previousPort, port, sample.timestampMillis()), pciBefore.get(device.name()),
                        sample.ncclConf(), fleetQos(), rxBaseline(state, port, sample.timestampMillis()), state.portQos,
                        sample.topology(), paths(new PortKey(sample.node(), device.name(), port.port())),
                        KernelNews.of(previous, sample, device.name(), port.port()));
                for (PortRule rule : RuleTable.PORT_RULES) {
                    if (rule.judges(input)) {
                        track(sample.node(), state, rule.id(), rule.evaluate(input, config).orElse(null), now);
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
        node.staleWith = null;
        Finding failing = RuleTable.AGENT_STALE.failingSources(sample).orElse(null);
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
            // the evidence is that of the sweep that found the node stale: it changes only when the state does
            Finding stale = RuleTable.AGENT_STALE.evaluate(view, now).orElse(null);
            if ((stale != null) != (node.staleWith != null)) {
                node.staleWith = stale;
                node.staleSinceMillis = now;
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

    /**
     * node_name_conflict: raised at once (since the refusal that raised it) and cleared at once, with no hysteresis:
     * the store's count of refused hellos is what it reads, and a conflict is rare and worth seeing. Its evidence
     * changes with the count.
     */
    private void nameConflict(NodeView view, long now) {
        Key key = new Key(view.node(), null, 0, Rule.NODE_NAME_CONFLICT);
        Diagnosis current = active.get(key);
        Finding conflict = RuleTable.NODE_NAME_CONFLICT.evaluate(view, now).orElse(null);
        if (conflict == null) {
            if (current != null) {
                active.remove(key);
                dirty = true;
            }
            return;
        }
        if (current == null || !current.values().equals(conflict.values())) {
            active.put(key, new Diagnosis(Rule.NODE_NAME_CONFLICT, view.node(), null, 0,
                    current == null ? view.issues().lastConflictMillis() : current.sinceMillis(), conflict.evidence(),
                    conflict.values()));
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

    /** This collector's fleet-baseline counts, for the other replicas of its cluster. */
    public synchronized FleetCounts fleetCounts() {
        return new FleetCounts(fleetRates.local(), qosFleet.local());
    }

    /**
     * Another replica's fleet-baseline counts: from now on the modal rates and the QoS fleet profile count its ports
     * with this collector's (docs/architecture.md "Cluster"), until it sends new ones or is {@link #forgetReplica
     * forgotten}.
     */
    public synchronized void remoteFleetCounts(String replica, FleetCounts counts) {
        fleetRates.remote(replica, counts.rates());
        qosFleet.remote(replica, counts.qos());
    }

    /** A replica left, or went silent: its ports no longer count. */
    public synchronized void forgetReplica(String replica) {
        fleetRates.forget(replica);
        qosFleet.forget(replica);
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
        if (state.qosProfile != null) {
            qosFleet.remove(state.qosProfile);
            state.qosProfile = null;
        }
        for (Rule rule : RULES) {
            if (state.tracks[rule.ordinal()] != null && active.remove(new Key(node, state.device, state.port, rule)) != null) {
                dirty = true;
            }
        }
    }

    /**
     * The pingmesh verdicts raised on {@code key}, with the store's last two reads of the other ports they name (their
     * counters go into the evidence); nothing is looked up for a port without a verdict.
     */
    private PathContext paths(PortKey key) {
        List<PathVerdict> verdicts = pathVerdicts.forPort(key);
        if (verdicts.isEmpty()) {
            return PathContext.NONE;
        }
        Map<PortKey, PathContext.Reads> ends = new HashMap<>();
        for (PathVerdict verdict : verdicts) {
            for (PortKey end : verdict.ends()) {
                if (!end.equals(key) && !ends.containsKey(end)) {
                    reads(end).ifPresent(reads -> ends.put(end, reads));
                }
            }
        }
        return new PathContext(key, verdicts, ends);
    }

    /** The last two reads of {@code key} the store holds; empty when it holds no sample with the port. */
    private Optional<PathContext.Reads> reads(PortKey key) {
        NodeStore.LastSamples held = store.lastSamples(key.node()).orElse(null);
        IbPort current = held == null ? null : NodeStore.portsByKey(held.last()).get(key.devicePort());
        if (current == null) {
            return Optional.empty();
        }
        HostSample previous = held.previous();
        IbPort before = previous == null ? null : NodeStore.portsByKey(previous).get(key.devicePort());
        return Optional.of(new PathContext.Reads(before, current,
                before == null ? 0 : held.last().timestampMillis() - previous.timestampMillis()));
    }

    /** Each lane's Rx power baseline before this sample (and this sample's readings added to it). */
    private Map<Integer, Double> rxBaseline(PortState state, IbPort port, long timestampMillis) {
        if (port.module() == null || port.module().lanes().isEmpty()) {
            return Map.of();
        }
        if (state.rxBaseline == null) {
            state.rxBaseline = new RxPowerBaseline(config.rxPowerDrift().baselineWindow());
        }
        return state.rxBaseline.update(port.module(), timestampMillis);
    }

    /**
     * Holds {@code rule} active at the port while its finding persists. Every port rule's evidence ends with the
     * workloads on the port as they were when it was raised or changed severity ({@link WorkloadHits}).
     */
    private void track(String node, PortState state, Rule rule, Finding finding, long now) {
        Hysteresis track = state.tracks[rule.ordinal()];
        if (track == null) {
            if (finding == null) {
                return; // the common case: nothing found, nothing pending
            }
            track = new Hysteresis();
            state.tracks[rule.ordinal()] = track;
        }
        Key key = new Key(node, state.device, state.port, rule);
        if (track.update(finding != null, now, config.window(rule))) {
            if (track.active()) {
                active.put(key, new Diagnosis(rule, node, state.device, state.port, track.activeSinceMillis(),
                        finding.evidence() + state.hits, finding.values(), finding.severity()));
                track.subject = finding.subject();
            } else {
                active.remove(key);
                track.subject = null;
            }
            dirty = true;
        } else if (finding != null && track.active()) {
            // an escalating rule (link_flapping) changes severity while active, a pingmesh verdict its culprit (the
            // path first, then the port): the evidence that made it do so wins; otherwise it stays as raised
            Diagnosis held = active.get(key);
            if (held != null && (held.severity() != finding.severity()
                    || !Objects.equals(track.subject, finding.subject()))) {
                active.put(key, new Diagnosis(rule, node, state.device, state.port, held.sinceMillis(),
                        finding.evidence() + state.hits, finding.values(), finding.severity()));
                track.subject = finding.subject();
                dirty = true;
            }
        }
        if (track.idle()) {
            state.tracks[rule.ordinal()] = null;
        }
    }

    private void nodeLevel(String name, NodeState node) {
        Key key = new Key(name, null, 0, Rule.AGENT_STALE);
        Diagnosis current = active.get(key);
        Diagnosis wanted = null;
        if (node.staleWith != null) {
            wanted = new Diagnosis(Rule.AGENT_STALE, name, null, 0, node.staleSinceMillis, node.staleWith.evidence(),
                    node.staleWith.values());
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

    /** Keeps the fleet's QoS profile counts in step with this port (RoCE ports with a DCB configuration only). */
    private void contributeQos(PortState state, IbPort port) {
        QosProfile profile = "Ethernet".equals(port.linkLayer()) ? state.portQos.profile() : null;
        if (Objects.equals(profile, state.qosProfile)) {
            return;
        }
        if (state.qosProfile != null) {
            qosFleet.remove(state.qosProfile);
        }
        if (profile != null) {
            qosFleet.add(profile);
        }
        state.qosProfile = profile;
    }

    /** The configured QoS profile, else the majority of RoCE ports; null when the fleet has none. */
    private QosProfile.Fleet fleetQos() {
        return config.qosProfile() != null ? new QosProfile.Fleet(config.qosProfile(), 0, 0, true)
                : qosFleet.majority(config.minPortsForQosProfile());
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

    /** The PCI function of each device of {@code sample} that has one; empty (no allocation) when none has. */
    private static Map<String, PciFunction> pciByDevice(HostSample sample) {
        Map<String, PciFunction> byDevice = null;
        for (IbDevice device : sample.devices()) {
            if (device.pci() != null) {
                if (byDevice == null) {
                    byDevice = new HashMap<>();
                }
                byDevice.put(device.name(), device.pci());
            }
        }
        return byDevice == null ? Map.of() : byDevice;
    }

    /** Enters what changed on the port into its flap ledger; the ledger's counts over link_flapping's windows. */
    private PortInput.FlapCounts ledger(PortState state, IbPort previous, IbPort current, long timestamp) {
        DiagnosisConfig.LinkFlapping limits = config.linkFlapping();
        state.ledger.observe(previous, current, timestamp, timestamp - limits.criticalWindow().toMillis());
        if (state.ledger.isEmpty()) {
            return PortInput.FlapCounts.NONE;
        }
        return new PortInput.FlapCounts(state.ledger.flapsAfter(timestamp - limits.warningWindow().toMillis()),
                state.ledger.flapsAfter(timestamp - limits.criticalWindow().toMillis()),
                state.ledger.saturatedCounters());
    }

    /** The changes of {@code node}'s GPUDirect RDMA verdicts, oldest first; empty when there were none. */
    public synchronized List<TopologyLedger.Change> topologyLedger(String node) {
        NodeState state = nodes.get(node);
        return state == null ? List.of() : state.topology.changes();
    }

    /**
     * The flap ledgers of {@code node}'s ports, by device and port (ports whose ledger is empty too); empty when
     * the engine has seen no sample of it.
     */
    public synchronized List<PortFlaps> flapLedger(String node) {
        NodeState state = nodes.get(node);
        if (state == null) {
            return List.of();
        }
        List<PortFlaps> ports = new ArrayList<>(state.ports.size());
        for (PortState port : state.ports.values()) {
            ports.add(new PortFlaps(port.device, port.port, port.ledger.entries(), port.ledger.saturatedCounters()));
        }
        ports.sort(Comparator.comparing(PortFlaps::device).thenComparingInt(PortFlaps::port));
        return ports;
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
}
