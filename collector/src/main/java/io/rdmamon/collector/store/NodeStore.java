package io.rdmamon.collector.store;

import io.rdmamon.protocol.model.HostSample;
import io.rdmamon.protocol.model.IbDevice;
import io.rdmamon.protocol.model.IbPort;
import io.rdmamon.protocol.model.KernelEvents;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.LongSupplier;

/**
 * What the collector knows about every node: the last two samples (for rates), a bounded history
 * of headline rates per port, liveness. Bounded: at most {@code maxNodes} nodes, at most
 * {@code historyPoints} points per port, and the histories of all ports together within a memory budget: past
 * it, every port keeps fewer points (the oldest go first), counted in {@link #historyShedPoints()}, so that a
 * fleet larger than the collector was sized for costs history, not the process. Thread-safe (ingest runs on the
 * event loop, tests and scrapes may read from elsewhere).
 */
public final class NodeStore {
    /** Outcome of offering a sample. */
    public enum Ingest {
        /** Newer than anything held: stored. */
        APPLIED,
        /** Already applied (a replay after reconnect of a sample that was already received): ignored. */
        DUPLICATE,
        /** No hello was registered for the node. */
        UNKNOWN_NODE,
        /** Stamped further ahead of the collector's clock than the skew allowed: refused, counted. */
        AHEAD_OF_CLOCK
    }

    /** Outcome of a hello (or layout change) asking to hold a node. */
    public enum Admission {
        ADMITTED,
        /** A new node while the store holds {@code maxNodes}. */
        NODE_LIMIT,
        /** The node's estimated heap ({@link NodeCost}) does not fit in what is left below the admission limit. */
        HEAP
    }

    /**
     * A node's newest sample and the one applied before it.
     *
     * @param last     the newest sample
     * @param previous the sample applied before it; null when there is none (the node's first since it registered)
     */
    public record LastSamples(HostSample last, HostSample previous) {
    }

    /** Why samples of a node were refused, as counted in {@link IngestIssues#refusedSamples()}. */
    public static final String REFUSED_AHEAD_OF_CLOCK = "ahead_of_clock";

    /** Samples stamped this far ahead of the collector's clock are refused unless configured otherwise. */
    public static final long DEFAULT_MAX_AHEAD_MILLIS = 5 * 60_000;

    private final LongSupplier clock;
    private final int staleAfterIntervals;
    private final long expireAfterMillis;
    private final int historyPoints;
    private final int maxNodes;
    private final long maxAheadMillis;
    private final long historyBudgetBytes;
    private final Map<String, Node> nodes = new HashMap<>();
    private final List<KernelEventSink> kernelEventSinks = new CopyOnWriteArrayList<>();
    /** Sum of the nodes' {@link NodeHistory#bytesPerPoint()}: what one more point on every port would cost. */
    private long historyBytesPerPoint;
    private long historyShedPoints;
    /** What the estimates of the nodes held may add up to ({@link #estimatedBytes()}); MAX_VALUE = no bound. */
    private long admissionLimitBytes = Long.MAX_VALUE;
    /** Sum of the nodes' {@link NodeCost#stateBytes()}. */
    private long costStateBytes;
    /** Sum of the nodes' full histories ({@link NodeCost#fullHistoryBytes(int)}). */
    private long costFullHistoryBytes;

    private static final class Node {
        String agentVersion;
        long intervalMillis;
        int connections;
        long lastSeenMillis;
        long lastSampleMillis;
        HostSample last;
        HostSample previous;
        /** The agent run ({@code Hello.instance}) whose sequence {@link #lastSeq} belongs to; null for older agents. */
        String instance;
        /** The agent's {@code seq} of {@link #last}; 0 when it came from no agent stream. */
        long lastSeq;
        final Map<String, Long> refused = new TreeMap<>();
        long conflicts;
        long lastConflictMillis;
        String lastConflict;
        final NodeHistory history = new NodeHistory();
        /** What the agent's kernel log said, as last reported ({@code kernel-events} frame); null before. */
        KernelEvents kernel;
        /** This node's share of {@link #historyBytesPerPoint} as last counted. */
        long historyBytesPerPoint;
        /** What the node is estimated to cost outside its history, and its full history; 0 when not estimated. */
        long costStateBytes;
        long costFullHistoryBytes;
    }

    public NodeStore(LongSupplier clock, int staleAfterIntervals, long expireAfterMillis, int historyPoints, int maxNodes) {
        this(clock, staleAfterIntervals, expireAfterMillis, historyPoints, maxNodes, DEFAULT_MAX_AHEAD_MILLIS);
    }

    /** {@code maxAheadMillis}: agent samples stamped further ahead of {@code clock} are refused ({@link Ingest#AHEAD_OF_CLOCK}). */
    public NodeStore(LongSupplier clock, int staleAfterIntervals, long expireAfterMillis, int historyPoints, int maxNodes,
                     long maxAheadMillis) {
        this(clock, staleAfterIntervals, expireAfterMillis, historyPoints, maxNodes, maxAheadMillis, Long.MAX_VALUE);
    }

    /**
     * {@code historyBudgetBytes}: the rate histories of all ports together hold at most this many bytes of points
     * (see {@link NodeHistory}); {@link Long#MAX_VALUE} = only {@code historyPoints} bounds them.
     */
    public NodeStore(LongSupplier clock, int staleAfterIntervals, long expireAfterMillis, int historyPoints, int maxNodes,
                     long maxAheadMillis, long historyBudgetBytes) {
        if (historyBudgetBytes <= 0) {
            throw new IllegalArgumentException("history budget must be positive: " + historyBudgetBytes);
        }
        this.historyBudgetBytes = historyBudgetBytes;
        this.maxAheadMillis = maxAheadMillis;
        this.clock = clock;
        this.staleAfterIntervals = staleAfterIntervals;
        this.expireAfterMillis = expireAfterMillis;
        this.historyPoints = historyPoints;
        this.maxNodes = maxNodes;
    }

    /**
     * A connection announced {@code node}. Returns false (and changes nothing) when the node is new and
     * the store already holds {@code maxNodes} nodes.
     */
    public synchronized boolean connect(String node, String agentVersion, long intervalMillis) {
        return connect(node, agentVersion, intervalMillis, null) == Admission.ADMITTED;
    }

    /**
     * A connection announced {@code node}, whose layout is estimated to cost {@code cost} (null: not estimated, as
     * before). Refused, changing nothing, when the node is new and the store already holds {@code maxNodes} nodes
     * ({@link Admission#NODE_LIMIT}), or when the node would grow the estimate of all nodes held
     * ({@link #estimatedBytes()}) beyond the admission limit ({@link Admission#HEAP}). A node held already and not
     * growing is always admitted: it costs the heap nothing new.
     */
    public synchronized Admission connect(String node, String agentVersion, long intervalMillis, NodeCost cost) {
        Node state = nodes.get(node);
        if (state == null && nodes.size() >= maxNodes) {
            return Admission.NODE_LIMIT;
        }
        if (!fits(state, cost)) {
            return Admission.HEAP;
        }
        if (state == null) {
            state = new Node();
            nodes.put(node, state);
        }
        account(state, cost);
        state.agentVersion = agentVersion;
        state.intervalMillis = intervalMillis;
        state.connections++;
        state.lastSeenMillis = clock.getAsLong();
        return Admission.ADMITTED;
    }

    /**
     * {@code node} announced a new layout estimated to cost {@code cost}. False, changing nothing, when the growth
     * does not fit below the admission limit; an unknown node is ignored (true).
     */
    public synchronized boolean relayout(String node, NodeCost cost) {
        Node state = nodes.get(node);
        if (state == null) {
            return true;
        }
        if (!fits(state, cost)) {
            return false;
        }
        account(state, cost);
        return true;
    }

    /** Whether {@code state} (null: a new node) may cost {@code cost} instead of its present estimate. */
    private boolean fits(Node state, NodeCost cost) {
        if (cost == null || admissionLimitBytes == Long.MAX_VALUE) {
            return true;
        }
        long oldState = state == null ? 0 : state.costStateBytes;
        long oldHistory = state == null ? 0 : state.costFullHistoryBytes;
        long newHistory = cost.fullHistoryBytes(historyPoints);
        if (cost.stateBytes() <= oldState && newHistory <= oldHistory) {
            return true;
        }
        return estimate(costStateBytes - oldState + cost.stateBytes(),
                costFullHistoryBytes - oldHistory + newHistory) <= admissionLimitBytes;
    }

    private void account(Node state, NodeCost cost) {
        if (cost == null) {
            return;
        }
        long history = cost.fullHistoryBytes(historyPoints);
        costStateBytes += cost.stateBytes() - state.costStateBytes;
        costFullHistoryBytes += history - state.costFullHistoryBytes;
        state.costStateBytes = cost.stateBytes();
        state.costFullHistoryBytes = history;
    }

    private void forget(Node state) {
        historyBytesPerPoint -= state.historyBytesPerPoint;
        costStateBytes -= state.costStateBytes;
        costFullHistoryBytes -= state.costFullHistoryBytes;
    }

    /** The nodes' state plus their histories, which the history budget caps. */
    private long estimate(long stateBytes, long fullHistoryBytes) {
        return stateBytes + Math.min(historyBudgetBytes, fullHistoryBytes);
    }

    /**
     * Bounds {@link #estimatedBytes()}: a hello or layout change that would take it beyond {@code bytes} is refused
     * ({@link Admission#HEAP}). {@link Long#MAX_VALUE} = no bound (the default).
     */
    public synchronized void admissionLimit(long bytes) {
        if (bytes < 0) {
            throw new IllegalArgumentException("admission limit must not be negative: " + bytes);
        }
        admissionLimitBytes = bytes;
    }

    /** The bound set by {@link #admissionLimit(long)}. */
    public synchronized long admissionLimitBytes() {
        return admissionLimitBytes;
    }

    /**
     * The heap the nodes held are estimated to take ({@link NodeCost}): their state, plus their full histories as far
     * as the history budget lets them grow.
     */
    public synchronized long estimatedBytes() {
        return estimate(costStateBytes, costFullHistoryBytes);
    }

    /** A connection of {@code node} closed. */
    public synchronized void disconnect(String node) {
        Node state = nodes.get(node);
        if (state != null && state.connections > 0) {
            state.connections--;
        }
    }

    /** A heartbeat (or any frame) arrived from {@code node}. */
    public synchronized void touch(String node) {
        Node state = nodes.get(node);
        if (state != null) {
            state.lastSeenMillis = clock.getAsLong();
        }
    }

    /**
     * Offers a sample of a connected node from a trusted source in this process (the agent's own exposition):
     * ordered by its timestamp.
     */
    public synchronized Ingest accept(HostSample sample) {
        Node state = nodes.get(sample.node());
        if (state == null) {
            return Ingest.UNKNOWN_NODE;
        }
        state.lastSeenMillis = clock.getAsLong();
        if (state.last != null && sample.timestampMillis() <= state.last.timestampMillis()) {
            return Ingest.DUPLICATE;
        }
        apply(state, sample, null, 0);
        return Ingest.APPLIED;
    }

    /**
     * Offers sample {@code seq} of agent run {@code instance} (null from agents that predate instance ids).
     * Samples are ordered by the agent's sequence, never by its clock alone: a sample stamped in the future must
     * not hide the ones after it, and an agent whose clock steps back must not lose data. A sample is a duplicate
     * when the same run already delivered its {@code seq} (a replay after a reconnect whose ack was lost); a new
     * run starts a new sequence. An agent without instance id cannot tell its restart (seq from 1 again) from a
     * replay, so there a sample is a duplicate only when both its seq and its timestamp are not newer than the last
     * one's. Samples stamped more than the allowed skew ahead of the collector's clock are refused and counted.
     */
    public synchronized Ingest accept(HostSample sample, String instance, long seq) {
        Node state = nodes.get(sample.node());
        if (state == null) {
            return Ingest.UNKNOWN_NODE;
        }
        long now = clock.getAsLong();
        state.lastSeenMillis = now;
        if (sample.timestampMillis() - now > maxAheadMillis) {
            state.refused.merge(REFUSED_AHEAD_OF_CLOCK, 1L, Long::sum);
            return Ingest.AHEAD_OF_CLOCK;
        }
        if (state.last != null && state.lastSeq > 0 && Objects.equals(instance, state.instance) && seq <= state.lastSeq
                && (instance != null || sample.timestampMillis() <= state.last.timestampMillis())) {
            return Ingest.DUPLICATE;
        }
        apply(state, sample, instance, seq);
        return Ingest.APPLIED;
    }

    private void apply(Node state, HostSample sample, String instance, long seq) {
        appendHistory(state, sample);
        state.previous = state.last;
        state.last = sample;
        state.lastSampleMillis = clock.getAsLong();
        state.instance = instance;
        state.lastSeq = seq;
    }

    /**
     * The kernel events {@code node}'s agent reported (cumulative; its connection puts them on the node's samples from
     * now on, for {@code /metrics} and the rules): kept with the node for the API, and the records not reported before
     * handed to every {@link KernelEventSink}. Unknown nodes are ignored.
     */
    public synchronized void kernelEvents(String node, KernelEvents events) {
        Node state = nodes.get(node);
        if (state == null) {
            return;
        }
        long lastSeq = state.kernel == null ? -1 : state.kernel.recent().stream()
                .mapToLong(KernelEvents.Event::seq).max().orElse(-1);
        state.kernel = events;
        // a new agent run (its kernel seq goes on from the host's) or a rebooted host (seq from 0) starts over
        List<KernelEvents.Event> fresh = events.recent().stream().filter(e -> e.seq() > lastSeq).toList();
        boolean restarted = !events.recent().isEmpty() && events.recent().get(events.recent().size() - 1).seq() < lastSeq;
        List<KernelEvents.Event> told = restarted ? events.recent() : fresh;
        if (!told.isEmpty()) {
            kernelEventSinks.forEach(sink -> sink.kernelEvents(node, told));
        }
    }

    /** The kernel events {@code node}'s agent last reported; empty when unknown or none yet. */
    public synchronized Optional<KernelEvents> kernelEvents(String node) {
        Node state = nodes.get(node);
        return state == null ? Optional.empty() : Optional.ofNullable(state.kernel);
    }

    /** Tells {@code sink} of every kernel record reported from now on. */
    public void addKernelEventSink(KernelEventSink sink) {
        kernelEventSinks.add(sink);
    }

    /**
     * A hello for {@code node} was refused because a live connection holds the name; {@code detail} says which
     * (addresses), for the node's view and the {@code node_name_conflict} diagnosis. Unknown nodes are ignored.
     */
    public synchronized void nameConflict(String node, String detail) {
        Node state = nodes.get(node);
        if (state != null) {
            state.conflicts++;
            state.lastConflictMillis = clock.getAsLong();
            state.lastConflict = detail;
        }
    }

    private void appendHistory(Node state, HostSample sample) {
        Map<String, IbPort> before = state.last == null ? Map.of() : portsByKey(state.last);
        long elapsed = state.last == null ? 0 : sample.timestampMillis() - state.last.timestampMillis();
        Map<String, RatePoint> points = new LinkedHashMap<>();
        portsByKey(sample).forEach((key, port) ->
                points.put(key, PortRates.headline(before.get(key), port, elapsed, sample.timestampMillis())));
        long costNow = NodeHistory.BYTES_PER_NODE_POINT + (long) NodeHistory.BYTES_PER_PORT_POINT * points.size();
        historyBytesPerPoint += costNow - state.historyBytesPerPoint;
        state.historyBytesPerPoint = costNow;
        historyShedPoints += state.history.append(sample.timestampMillis(), points, historyLimit(), historyPoints);
    }

    /** Points each port keeps now: {@code historyPoints}, or fewer while the fleet's histories would exceed the budget. */
    public synchronized int historyLimit() {
        long perPoint = Math.max(1, historyBytesPerPoint);
        return (int) Math.max(1, Math.min(historyPoints, historyBudgetBytes / perPoint));
    }

    /** Port-points dropped, oldest first, to keep the histories within the memory budget (not those aged out). */
    public synchronized long historyShedPoints() {
        return historyShedPoints;
    }

    /** Bytes the rate histories hold (allocated ring capacity). */
    public synchronized long historyBytes() {
        return nodes.values().stream().mapToLong(n -> n.history.bytes()).sum();
    }

    /** {@code device/port} → port, in sample order. */
    public static Map<String, IbPort> portsByKey(HostSample sample) {
        Map<String, IbPort> ports = new LinkedHashMap<>();
        for (IbDevice device : sample.devices()) {
            for (IbPort port : device.ports()) {
                ports.put(device.name() + "/" + port.port(), port);
            }
        }
        return ports;
    }

    /** The agent run ({@code Hello.instance}) of {@code node}'s newest sample; empty when unknown or the agent sends none. */
    public synchronized Optional<String> instance(String node) {
        Node state = nodes.get(node);
        return state == null ? Optional.empty() : Optional.ofNullable(state.instance);
    }

    /**
     * The newest sample of {@code node} and the one before it; empty when the store holds no sample of it. The one
     * place that holds samples: the diagnosis engine reads its previous sample here.
     */
    public synchronized Optional<LastSamples> lastSamples(String node) {
        Node state = nodes.get(node);
        return state == null || state.last == null ? Optional.empty()
                : Optional.of(new LastSamples(state.last, state.previous));
    }

    /**
     * Removes nodes silent for longer than the expiry and returns their names; shrinks every history to the
     * current limit.
     */
    public synchronized List<String> expire() {
        long now = clock.getAsLong();
        List<String> expired = new ArrayList<>();
        nodes.entrySet().removeIf(e -> {
            boolean gone = now - e.getValue().lastSeenMillis > expireAfterMillis;
            if (gone) {
                expired.add(e.getKey());
                forget(e.getValue());
            }
            return gone;
        });
        // a node's rings shrink to the limit when it appends; this reaches the nodes that stopped sending
        int limit = historyLimit();
        for (Node node : nodes.values()) {
            historyShedPoints += node.history.limit(limit);
        }
        return expired;
    }

    /**
     * Drops {@code node} at once, history and all: another replica of the cluster took it over (its agent moved), and
     * a node must be exported by one replica only. False when the store did not hold it.
     */
    public synchronized boolean remove(String node) {
        Node state = nodes.remove(node);
        if (state != null) {
            forget(state);
        }
        return state != null;
    }

    /** Every node, sorted by name. */
    public synchronized List<NodeView> nodes() {
        long now = clock.getAsLong();
        return new TreeMap<>(nodes).entrySet().stream().map(e -> view(e.getKey(), e.getValue(), now)).toList();
    }

    /** Whether the store holds {@code name} (without building its view, as {@link #node} does). */
    public synchronized boolean contains(String name) {
        return nodes.containsKey(name);
    }

    public synchronized Optional<NodeView> node(String name) {
        Node state = nodes.get(name);
        return state == null ? Optional.empty() : Optional.of(view(name, state, clock.getAsLong()));
    }

    /** Rate history of every port of {@code name} ({@code device/port} → points, oldest first). */
    public synchronized Optional<Map<String, List<RatePoint>>> history(String name) {
        Node state = nodes.get(name);
        if (state == null) {
            return Optional.empty();
        }
        return Optional.of(state.history.points());
    }

    /** Open agent connections over all nodes. */
    public synchronized int connections() {
        return nodes.values().stream().mapToInt(n -> n.connections).sum();
    }

    private NodeView view(String name, Node state, long now) {
        boolean up = state.last != null
                && now - state.lastSampleMillis <= staleAfterIntervals * Math.max(1, state.intervalMillis);
        return new NodeView(name, state.agentVersion, state.intervalMillis, up, state.connections,
                state.lastSeenMillis, state.lastSampleMillis, state.last, state.previous,
                new IngestIssues(Map.copyOf(state.refused), state.conflicts, state.lastConflictMillis, state.lastConflict));
    }
}
