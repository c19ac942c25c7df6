package io.rdmamon.collector.diagnosis;

import java.util.HashMap;
import java.util.Map;

/**
 * How many RoCE ports with a QoS configuration run each {@link QosProfile}, kept up to date port by port (like
 * {@link FleetRates}) so that the majority profile is found without walking the fleet.
 */
final class QosFleet {
    private final Map<QosProfile, Integer> counts = new HashMap<>();
    private int total;

    void add(QosProfile profile) {
        counts.merge(profile, 1, Integer::sum);
        total++;
    }

    void remove(QosProfile profile) {
        if (counts.containsKey(profile)) {
            counts.computeIfPresent(profile, (p, n) -> n > 1 ? n - 1 : null);
            total--;
        }
    }

    /**
     * The profile most ports run, when it is a strict majority of at least {@code minPorts} ports; null otherwise
     * (a split fleet has no profile to drift from).
     */
    QosProfile.Fleet majority(int minPorts) {
        QosProfile best = null;
        int bestCount = 0;
        for (Map.Entry<QosProfile, Integer> e : counts.entrySet()) {
            if (e.getValue() > bestCount) {
                best = e.getKey();
                bestCount = e.getValue();
            }
        }
        return best != null && total >= minPorts && bestCount * 2 > total
                ? new QosProfile.Fleet(best, bestCount, total, false) : null;
    }
}
