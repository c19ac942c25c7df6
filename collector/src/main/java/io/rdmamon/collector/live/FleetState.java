package io.rdmamon.collector.live;

import com.fasterxml.jackson.core.JsonGenerator;
import io.rdmamon.collector.diagnosis.Diagnosis;
import io.rdmamon.collector.json.StreamingJson;
import io.rdmamon.collector.store.NodeStore;
import io.rdmamon.collector.store.NodeView;
import io.rdmamon.collector.store.PhysicalLayer;
import io.rdmamon.collector.store.PortRates;
import io.rdmamon.collector.store.RatePoint;
import io.rdmamon.protocol.model.EthtoolStats;
import io.rdmamon.protocol.model.HostSample;
import io.rdmamon.protocol.model.IbDevice;
import io.rdmamon.protocol.model.IbPort;
import io.rdmamon.protocol.model.PortTransport;
import io.rdmamon.protocol.model.SourceStatus;
import io.rdmamon.protocol.rates.CounterGroup;
import io.rdmamon.protocol.rates.CounterRate;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * The fleet as the overview shows it, one JSON row per node, and what changed since the previous
 * tick. A node's row is rebuilt only when it has a new sample, its liveness changed or its active diagnoses
 * changed, so a tick costs in proportion to the nodes that changed. Each port carries its diagnosis badge,
 * decided here so that the dashboard derives nothing from the diagnoses itself (and so that the badge holds
 * beyond the diagnoses the {@code diagnoses} event has room for). Called from one thread at a time (ticks are
 * serialised).
 */
final class FleetState {
    /** Field order of a port array in a node row (sent in the hello). */
    static final List<String> PORT_FIELDS = List.of("device", "port", "state", "stateId", "linkLayer",
            "rateBytesPerSecond", "netdev", "rxBytesPerSecond", "txBytesPerSecond", "rxPacketsPerSecond",
            "txPacketsPerSecond", "losslessShare", "active", "transport", "preFecBer", "rxPowerMarginDb", "badge");
    static final int MAX_FAILURES_PER_NODE = 5;

    /**
     * One tick: the delta to send to up-to-date clients and every row for a client that needs all; the rows that
     * changed, the names removed and the names held, for the other replicas of a cluster ({@link RemoteFleet}).
     */
    record Tick(long timestampMillis, String delta, List<String> rows, List<String> changed, Set<String> removed,
                Set<String> names) {
        String full() {
            return full(timestampMillis, rows);
        }

        static String full(long timestampMillis, Collection<String> rows) {
            StringBuilder json = new StringBuilder(rows.stream().mapToInt(String::length).sum() + rows.size() + 64)
                    .append("{\"full\":true,\"ts\":").append(timestampMillis).append(",\"nodes\":[");
            boolean first = true;
            for (String row : rows) {
                json.append(first ? "" : ",").append(row);
                first = false;
            }
            return json.append("],\"removed\":[]}").toString();
        }
    }

    /** What a row is built from besides the sample: a row whose key is unchanged is not rebuilt. */
    private record RowKey(long lastSampleMillis, boolean up, boolean connected, String agentVersion,
                          List<Diagnosis> diagnoses) {
    }

    private record Row(RowKey key, String json) {
    }

    private final NodeStore store;
    private final String replica;
    private final Supplier<List<Diagnosis>> diagnoses;
    private final LongSupplier clock;
    private Map<String, Row> rows = new HashMap<>();

    /**
     * {@code replica}: the id of this collector in its cluster, in every row (the replica holding the node);
     * {@code diagnoses}: the active diagnoses in {@link Diagnosis#ORDER} (most urgent first), read once a tick.
     */
    FleetState(NodeStore store, String replica, Supplier<List<Diagnosis>> diagnoses, LongSupplier clock) {
        this.store = store;
        this.replica = replica;
        this.diagnoses = diagnoses;
        this.clock = clock;
    }

    Tick tick() {
        Map<String, List<Diagnosis>> diagnosesByNode = byNode(diagnoses.get());
        List<NodeView> views = store.nodes();
        Map<String, Row> next = new HashMap<>(views.size() * 2);
        List<String> changed = new ArrayList<>();
        List<String> all = new ArrayList<>(views.size());
        for (NodeView view : views) {
            RowKey key = new RowKey(view.lastSampleMillis(), view.up(), view.connections() > 0, view.agentVersion(),
                    diagnosesByNode.getOrDefault(view.node(), List.of()));
            Row row = rows.get(view.node());
            if (row == null || !row.key().equals(key)) {
                row = new Row(key, row(view, replica, key.diagnoses()));
                changed.add(row.json());
            }
            next.put(view.node(), row);
            all.add(row.json());
        }
        Set<String> removed = new HashSet<>(rows.keySet());
        removed.removeAll(next.keySet());
        rows = next;
        long now = clock.getAsLong();
        return new Tick(now, delta(now, changed, removed), List.copyOf(all), List.copyOf(changed), Set.copyOf(removed),
                Set.copyOf(next.keySet()));
    }

    /** The diagnoses of each node, each list in the order given (most urgent first). */
    private static Map<String, List<Diagnosis>> byNode(List<Diagnosis> active) {
        Map<String, List<Diagnosis>> byNode = new HashMap<>();
        for (Diagnosis d : active) {
            byNode.computeIfAbsent(d.node(), node -> new ArrayList<>()).add(d);
        }
        return byNode;
    }

    static String delta(long now, List<String> changed, Set<String> removed) {
        StringBuilder json = new StringBuilder(changed.stream().mapToInt(String::length).sum() + 64)
                .append("{\"full\":false,\"ts\":").append(now).append(",\"nodes\":[");
        for (int i = 0; i < changed.size(); i++) {
            json.append(i == 0 ? "" : ",").append(changed.get(i));
        }
        json.append("],\"removed\":");
        return json.append(StreamingJson.write(g -> {
            g.writeStartArray();
            for (String name : removed) {
                g.writeString(name);
            }
            g.writeEndArray();
        })).append('}').toString();
    }

    private static String row(NodeView view, String replica, List<Diagnosis> nodeDiagnoses) {
        return StreamingJson.write(g -> {
            g.writeStartObject();
            g.writeStringField("node", view.node());
            g.writeStringField("replica", replica);
            g.writeBooleanField("up", view.up());
            g.writeBooleanField("connected", view.connections() > 0);
            g.writeStringField("agentVersion", view.agentVersion());
            g.writeNumberField("intervalMillis", view.intervalMillis());
            g.writeNumberField("lastSeenMillis", view.lastSeenMillis());
            HostSample last = view.lastSample();
            if (last == null) {
                g.writeNullField("lastSampleTimestampMillis");
            } else {
                g.writeNumberField("lastSampleTimestampMillis", last.timestampMillis());
            }
            g.writeArrayFieldStart("failures");
            if (last != null) {
                int written = 0;
                for (SourceStatus s : last.sources()) {
                    if (!s.success() && written++ < MAX_FAILURES_PER_NODE) {
                        g.writeStartArray();
                        g.writeString(s.source());
                        g.writeString(s.subject());
                        g.writeString(s.error());
                        g.writeEndArray();
                    }
                }
            }
            g.writeEndArray();
            g.writeArrayFieldStart("ports");
            if (last != null) {
                Map<String, IbPort> previous = view.previousSample() == null ? Map.of()
                        : NodeStore.portsByKey(view.previousSample());
                long elapsed = view.previousSample() == null ? 0
                        : last.timestampMillis() - view.previousSample().timestampMillis();
                for (IbDevice device : last.devices()) {
                    for (IbPort port : device.ports()) {
                        g.writeStartArray();
                        portFacts(g, device, port, previous.get(device.name() + "/" + port.port()), elapsed);
                        badge(g, device.name(), port.port(), nodeDiagnoses);
                        g.writeEndArray();
                    }
                }
            }
            g.writeEndArray();
            g.writeEndObject();
        });
    }

    /** The port fields before the badge, from the sample. */
    private static void portFacts(JsonGenerator g, IbDevice device, IbPort port, IbPort previous, long elapsed)
            throws IOException {
        RatePoint rates = PortRates.headline(previous, port, elapsed, 0);
        g.writeString(device.name());
        g.writeNumber(port.port());
        g.writeString(port.state());
        g.writeNumber(port.stateId());
        g.writeString(port.linkLayer());
        number(g, port.rateBytesPerSecond() == null ? null : port.rateBytesPerSecond().doubleValue());
        g.writeString(port.netdev());
        number(g, rates.rxBytesPerSecond());
        number(g, rates.txBytesPerSecond());
        number(g, rates.rxPacketsPerSecond());
        number(g, rates.txPacketsPerSecond());
        number(g, losslessShare(previous, port, elapsed));
        g.writeBoolean(port.isActive());
        g.writeString(PortTransport.of(device, port).jsonName());
        PhysicalLayer.PreFecBer ber = PhysicalLayer.preFecBer(previous, port, elapsed);
        number(g, ber == null ? null : ber.ber());
        number(g, PhysicalLayer.worstRxMarginDb(port.module()));
    }

    /**
     * The port's diagnosis badge, the last port field: null without a diagnosis, else
     * {@code {severity, count, issues:[{rule, severity, evidence}…]}} with the port's own diagnoses and its node's
     * node-level ones ({@code agent_stale}, {@code node_name_conflict} badge every port of the node), most urgent
     * first; {@code severity} is the worst, that of the first issue.
     */
    private static void badge(JsonGenerator g, String device, int port, List<Diagnosis> nodeDiagnoses)
            throws IOException {
        List<Diagnosis> issues = nodeDiagnoses.stream()
                .filter(d -> d.nodeLevel() || (d.port() == port && d.device().equals(device))).toList();
        if (issues.isEmpty()) {
            g.writeNull();
            return;
        }
        g.writeStartObject();
        g.writeStringField("severity", issues.get(0).severity().id());
        g.writeNumberField("count", issues.size());
        g.writeArrayFieldStart("issues");
        for (Diagnosis d : issues) {
            g.writeStartObject();
            g.writeStringField("rule", d.rule().id());
            g.writeStringField("severity", d.severity().id());
            g.writeStringField("evidence", d.evidence());
            g.writeEndObject();
        }
        g.writeEndArray();
        g.writeEndObject();
    }

    /**
     * Share of the transmitted per-priority bytes that went out on PFC-enabled (lossless) priorities,
     * 0..1, over the last interval; null without ethtool priority counters or without traffic.
     */
    static Double losslessShare(IbPort previous, IbPort current, long elapsedMillis) {
        EthtoolStats ethtool = current.ethtool();
        if (ethtool == null || previous == null) {
            return null;
        }
        double lossless = 0;
        double total = 0;
        for (int prio = 0; prio < 8; prio++) {
            CounterRate rate = PortRates.rate(previous, current, elapsedMillis, CounterGroup.ETHTOOL,
                    "tx_prio" + prio + "_bytes");
            if (rate != null && rate.hasRate()) {
                total += rate.perSecond();
                if (ethtool.pfcEnabledPriorities().contains(prio)) {
                    lossless += rate.perSecond();
                }
            }
        }
        return total > 0 ? lossless / total : null;
    }

    /** {@code value} at the overview's precision ({@link DisplayNumbers}); null when absent or not finite. */
    private static void number(JsonGenerator g, Double value) throws IOException {
        String text = value == null ? null : DisplayNumbers.text(value);
        if (text == null) {
            g.writeNull();
        } else {
            g.writeNumber(text);
        }
    }
}
