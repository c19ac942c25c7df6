package io.rdmamon.collector.diagnosis.engine;

import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

/**
 * How many active ports of each HCA model (hca_type and link layer) run at each rate, kept up to date port by
 * port so that the most common rate of a model is found without walking the fleet. A port contributes one
 * count; its owner removes the old contribution before adding a new one.
 */
final class FleetRates {
    /** One HCA model. */
    record Model(String hcaType, String linkLayer) {
        Model {
            Objects.requireNonNull(hcaType, "hcaType");
        }
    }

    /** The most common rate of a model: {@code ports} of the model's {@code total} active ports run at it. */
    record Modal(long bytesPerSecond, int ports, int total) {
    }

    private final Map<Model, Map<Long, Integer>> counts = new HashMap<>();
    /** The counts of the other replicas of a cluster, by replica, as they last published them. */
    private final Map<String, Map<Model, Map<Long, Integer>>> remote = new HashMap<>();

    void add(Model model, long bytesPerSecond) {
        counts.computeIfAbsent(model, m -> new HashMap<>(4)).merge(bytesPerSecond, 1, Integer::sum);
    }

    void remove(Model model, long bytesPerSecond) {
        Map<Long, Integer> rates = counts.get(model);
        if (rates == null) {
            return;
        }
        rates.computeIfPresent(bytesPerSecond, (rate, n) -> n > 1 ? n - 1 : null);
        if (rates.isEmpty()) {
            counts.remove(model);
        }
    }

    /** This collector's own counts (a copy), to publish to the other replicas. */
    Map<Model, Map<Long, Integer>> local() {
        Map<Model, Map<Long, Integer>> copy = new HashMap<>();
        counts.forEach((model, rates) -> copy.put(model, new HashMap<>(rates)));
        return copy;
    }

    /** Replaces what {@code replica} counted; its ports count with this collector's from now on. */
    void remote(String replica, Map<Model, Map<Long, Integer>> theirs) {
        remote.put(replica, theirs);
    }

    void forget(String replica) {
        remote.remove(replica);
    }

    /**
     * The rate most active ports of {@code model} run at (the higher one on a tie), over this collector's ports and
     * the other replicas'; null below {@code minPorts} ports.
     */
    Modal modal(Model model, int minPorts) {
        Map<Long, Integer> rates = counts.get(model);
        if (!remote.isEmpty()) {
            Map<Long, Integer> merged = rates == null ? new HashMap<>() : new HashMap<>(rates);
            remote.values().forEach(theirs -> theirs.getOrDefault(model, Map.of())
                    .forEach((rate, n) -> merged.merge(rate, n, Integer::sum)));
            rates = merged;
        }
        if (rates == null || rates.isEmpty()) {
            return null;
        }
        int total = 0;
        long best = -1;
        int bestCount = 0;
        for (Map.Entry<Long, Integer> e : rates.entrySet()) {
            total += e.getValue();
            if (e.getValue() > bestCount || e.getValue() == bestCount && e.getKey() > best) {
                best = e.getKey();
                bestCount = e.getValue();
            }
        }
        return total >= minPorts ? new Modal(best, bestCount, total) : null;
    }
}
