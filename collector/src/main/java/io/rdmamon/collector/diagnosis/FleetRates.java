package io.rdmamon.collector.diagnosis;

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

    /** The rate most active ports of {@code model} run at (the higher one on a tie); null below {@code minPorts} ports. */
    Modal modal(Model model, int minPorts) {
        Map<Long, Integer> rates = counts.get(model);
        if (rates == null) {
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
