package io.rdmamon.collector.pingmesh;

import io.rdmamon.collector.model.PortKey;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A port's state over the window, from the pairs it took part in at either end (docs/pingmesh.md "Port state"):
 * {@code unreachable} when every pair lost everything, {@code loss} when more than half its pairs lost a round trip,
 * {@code slow} when the median of its pairs' median round trips is more than twice the fleet's median of pair
 * medians, {@code ok} otherwise; {@code unprobed} when it took part in no probe. "More than half" keeps a healthy
 * port that happens to probe one bad peer {@code ok}: the bad peer is the one whose pairs all go bad.
 */
public enum PortState {
    OK, LOSS, SLOW, UNREACHABLE, UNPROBED;

    public String jsonName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The state of each port that took part in one of {@code pairs}; a port missing from the answer is unprobed. */
    public static Map<PortKey, PortState> of(List<PairStats> pairs) {
        Map<PortKey, List<PairStats>> byPort = new HashMap<>();
        List<Double> medians = new ArrayList<>();
        for (PairStats pair : pairs) {
            byPort.computeIfAbsent(pair.src(), k -> new ArrayList<>()).add(pair);
            byPort.computeIfAbsent(pair.dst(), k -> new ArrayList<>()).add(pair);
            if (!Double.isNaN(pair.p50Seconds())) {
                medians.add(pair.p50Seconds());
            }
        }
        double fleetMedian = median(medians);
        Map<PortKey, PortState> states = new HashMap<>();
        byPort.forEach((port, own) -> {
            int lossy = 0;
            int dead = 0;
            List<Double> portMedians = new ArrayList<>();
            for (PairStats pair : own) {
                lossy += pair.lost() > 0 ? 1 : 0;
                dead += pair.sent() > 0 && pair.lost() == pair.sent() ? 1 : 0;
                if (!Double.isNaN(pair.p50Seconds())) {
                    portMedians.add(pair.p50Seconds());
                }
            }
            PortState state;
            if (dead == own.size()) {
                state = UNREACHABLE;
            } else if (2 * lossy > own.size()) {
                state = LOSS;
            } else if (!portMedians.isEmpty() && median(portMedians) > 2 * fleetMedian) {
                state = SLOW;
            } else {
                state = OK;
            }
            states.put(port, state);
        });
        return states;
    }

    private static double median(List<Double> values) {
        if (values.isEmpty()) {
            return Double.NaN;
        }
        List<Double> sorted = new ArrayList<>(values);
        sorted.sort(null);
        return sorted.get((sorted.size() - 1) / 2);
    }
}
