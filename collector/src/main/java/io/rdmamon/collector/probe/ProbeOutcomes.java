package io.rdmamon.collector.probe;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The last finished, not cancelled, probe per source → destination pair, for the {@code rdma_probe_*}
 * families. Written on the event loop, read by scrapes on workers, hence synchronized. Bounded: the
 * pairs probed longest ago are dropped beyond {@link #MAX_PAIRS}.
 */
public final class ProbeOutcomes {
    static final int MAX_PAIRS = 4096;
    private final Map<String, ProbeOutcome> byPair = new LinkedHashMap<>();

    synchronized void put(ProbeOutcome outcome) {
        String key = String.join("\u0000", outcome.srcNode(), outcome.srcDevice(), Integer.toString(outcome.srcPort()),
                outcome.dstNode(), outcome.dstDevice(), Integer.toString(outcome.dstPort()));
        byPair.remove(key); // re-insert so that iteration order is oldest probe first
        byPair.put(key, outcome);
        if (byPair.size() > MAX_PAIRS) {
            byPair.remove(byPair.keySet().iterator().next());
        }
    }

    public synchronized List<ProbeOutcome> snapshot() {
        return List.copyOf(byPair.values());
    }
}
