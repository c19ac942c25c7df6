package io.rdmamon.collector.live;

import io.rdmamon.collector.model.PortKey;
import io.rdmamon.collector.store.NodeStore;
import io.rdmamon.collector.store.NodeView;
import io.rdmamon.collector.store.RatePoint;
import io.rdmamon.protocol.model.HostSample;
import io.rdmamon.protocol.model.IbPort;

import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Full detail histories, kept for ports a dashboard watches, for ports with an active diagnosis (so that
 * the on-call who follows an alert to the port finds its per-priority and PFC history from before the
 * click) and, while there is room, for ports watched or diagnosed recently. At most {@code maxPorts}
 * histories over all three: a watch takes the slot of the least recently used history that is neither
 * watched nor diagnosed, else of the least recently used diagnosed one; a diagnosed port only takes a slot
 * that is free or neither watched nor diagnosed. When every history is watched, a further watch is refused.
 * A new history is seeded with the store's headline rates, so throughput has its 15 minutes at once.
 * Confined to the event loop.
 */
final class DetailTracker {
    private final NodeStore store;
    private final int maxPorts;
    private final int historyPoints;
    private final Map<PortKey, PortHistory> histories = new LinkedHashMap<>(16, 0.75f, true);
    private final Map<PortKey, Integer> watchers = new HashMap<>();
    private Set<PortKey> diagnosed = Set.of();

    DetailTracker(NodeStore store, int maxPorts, int historyPoints) {
        this.store = store;
        this.maxPorts = maxPorts;
        this.historyPoints = historyPoints;
    }

    /** Registers a watcher of {@code key}; false when every history slot is watched by someone. */
    boolean watch(PortKey key) {
        if (!histories.containsKey(key)) {
            if (histories.size() >= maxPorts && !evict(false) && !evict(true)) {
                return false;
            }
            histories.put(key, seeded(key));
        }
        watchers.merge(key, 1, Integer::sum);
        return true;
    }

    void unwatch(PortKey key) {
        watchers.computeIfPresent(key, (k, n) -> n > 1 ? n - 1 : null);
    }

    /**
     * The ports with an active diagnosis now, most urgent first (critical, then the oldest): each gets a history
     * while there is a slot for it; those beyond the bound get none until one frees up (a later call).
     */
    void diagnosed(Collection<PortKey> ports) {
        diagnosed = new HashSet<>(ports);
        for (PortKey key : ports) {
            if (!histories.containsKey(key)) {
                if (histories.size() >= maxPorts && !evict(false)) {
                    return; // every slot is watched or diagnosed
                }
                histories.put(key, seeded(key));
            }
        }
    }

    Optional<PortHistory> history(PortKey key) {
        return Optional.ofNullable(histories.get(key));
    }

    int size() {
        return histories.size();
    }

    /** Appends a point to every history whose node has a sample newer than its newest point. */
    void poll() {
        Map<String, Optional<NodeView>> views = new HashMap<>();
        Map<String, Map<String, IbPort>> lastPorts = new HashMap<>();
        Map<String, Map<String, IbPort>> previousPorts = new HashMap<>();
        for (Map.Entry<PortKey, PortHistory> entry : histories.entrySet()) {
            PortKey key = entry.getKey();
            PortHistory history = entry.getValue();
            NodeView view = views.computeIfAbsent(key.node(), store::node).orElse(null);
            if (view == null || view.lastSample() == null
                    || view.lastSample().timestampMillis() <= history.lastTimestamp()) {
                continue;
            }
            HostSample last = view.lastSample();
            HostSample previous = view.previousSample();
            IbPort current = lastPorts.computeIfAbsent(key.node(), n -> NodeStore.portsByKey(last)).get(key.devicePort());
            if (current == null) {
                continue; // the port vanished; its history stays until evicted
            }
            IbPort before = previous == null ? null
                    : previousPorts.computeIfAbsent(key.node(), n -> NodeStore.portsByKey(previous)).get(key.devicePort());
            long elapsed = previous == null ? 0 : last.timestampMillis() - previous.timestampMillis();
            history.append(last.timestampMillis(), DetailSeries.point(before, current, elapsed));
            history.moved(MovedCounter.between(before, current, elapsed));
        }
    }

    private PortHistory seeded(PortKey key) {
        PortHistory history = new PortHistory(historyPoints, DetailSeries.ALL.size());
        List<RatePoint> points = store.history(key.node()).map(h -> h.get(key.devicePort())).orElse(List.of());
        for (RatePoint point : points.subList(Math.max(0, points.size() - historyPoints), points.size())) {
            history.append(point.timestampMillis(), DetailSeries.headlineOnly(point));
        }
        return history;
    }

    /** Drops the least recently used unwatched history that is not diagnosed, or ({@code diagnosedToo}) that is. */
    private boolean evict(boolean diagnosedToo) {
        // access order: the first match is the least recently used one
        for (Iterator<PortKey> it = histories.keySet().iterator(); it.hasNext(); ) {
            PortKey key = it.next();
            if (!watchers.containsKey(key) && (diagnosedToo || !diagnosed.contains(key))) {
                it.remove();
                return true;
            }
        }
        return false;
    }
}
