package io.rdmamon.collector.diagnosis.engine;

import io.rdmamon.protocol.model.GpuTopology;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The history of one node's GPUDirect RDMA verdicts: every reading in which a (GPU, NIC) pair's verdict or reasons
 * changed, so that "ACS re-enabled on node 17 after a reboot" is an event with a time, not only a rule that fires.
 * The agent sends the topology whole on its slow cadence (docs/topology.md), and the first reading of a node is its
 * baseline, not an event. Bounded; not thread-safe (the engine synchronises).
 */
public final class TopologyLedger {
    /**
     * One pair's change between two readings.
     *
     * @param timestampMillis the sample that carried the new reading (agent clock)
     * @param from            the verdict before; null when the pair is new
     * @param to              the verdict now; null when the pair is gone (a GPU or NIC no longer seen)
     * @param raised          reasons the pair has now and had not
     * @param cleared         reasons the pair had and has no longer
     */
    public record Change(long timestampMillis, String gpu, String nic, String from, String to, List<String> raised,
                  List<String> cleared) {
        public Change {
            raised = List.copyOf(raised);
            cleared = List.copyOf(cleared);
        }
    }

    /** Changes kept per node: years of reboots, hours of a flapping BIOS setting. */
    static final int MAX_CHANGES = 256;

    private final ArrayDeque<Change> changes = new ArrayDeque<>();
    private GpuTopology last;
    private boolean seen;

    /** Records what changed from the previous reading to {@code topology} (null: the node sent none this time). */
    void observe(GpuTopology topology, long timestampMillis) {
        if (seen && topology != last) {
            for (Change change : changes(last, topology, timestampMillis)) {
                if (changes.size() == MAX_CHANGES) {
                    changes.removeFirst();
                }
                changes.addLast(change);
            }
        }
        seen = true;
        last = topology;
    }

    /** Oldest first. */
    List<Change> changes() {
        return List.copyOf(changes);
    }

    /** Every pair whose verdict or reasons differ between {@code before} and {@code after} (either may be null). */
    public static List<Change> changes(GpuTopology before, GpuTopology after, long timestampMillis) {
        Map<String, GpuTopology.Pair> old = byPair(before);
        Map<String, GpuTopology.Pair> now = byPair(after);
        List<Change> changes = new ArrayList<>();
        now.forEach((key, pair) -> {
            GpuTopology.Pair was = old.get(key);
            List<String> wasReasons = was == null ? List.of() : was.reasons();
            if (was == null || !Objects.equals(was.verdict(), pair.verdict()) || !wasReasons.equals(pair.reasons())) {
                changes.add(new Change(timestampMillis, pair.gpu(), pair.nic(), was == null ? null : was.verdict(),
                        pair.verdict(), minus(pair.reasons(), wasReasons), minus(wasReasons, pair.reasons())));
            }
        });
        old.forEach((key, was) -> {
            if (!now.containsKey(key)) {
                changes.add(new Change(timestampMillis, was.gpu(), was.nic(), was.verdict(), null, List.of(),
                        was.reasons()));
            }
        });
        return changes;
    }

    private static Map<String, GpuTopology.Pair> byPair(GpuTopology topology) {
        Map<String, GpuTopology.Pair> pairs = new LinkedHashMap<>();
        if (topology != null) {
            topology.pairs().forEach(p -> pairs.put(p.gpu() + "\0" + p.nic(), p));
        }
        return pairs;
    }

    private static List<String> minus(List<String> these, List<String> those) {
        return these.stream().filter(r -> !those.contains(r)).toList();
    }
}
