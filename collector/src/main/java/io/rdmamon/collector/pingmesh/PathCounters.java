package io.rdmamon.collector.pingmesh;

import io.rdmamon.collector.model.PortKey;
import io.rdmamon.protocol.model.IbPort;
import io.rdmamon.protocol.model.LosslessPriorities;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The counters that tell why a path loses or slows down, per mesh port, as snapshots taken every round, so that the
 * pair view can show how much each moved over the window: symbol errors and link downs (the port's own link), pause
 * frames on its lossless priorities (congestion pushed back at it), and the transport's out-of-sequence and timeout
 * counters (a packet lost somewhere on the path: mlx5's {@code out_of_sequence}, {@code packet_seq_err},
 * {@code local_ack_timeout_err}; rxe's {@code out_of_seq_request}, {@code rcvd_seq_err}, {@code completer_retry_err}).
 * A port shows the ones it has.
 */
final class PathCounters {
    private static final List<String> PORT_COUNTERS = List.of("symbol_error", "link_downed");
    private static final List<String> HW_COUNTERS = List.of("out_of_sequence", "packet_seq_err", "out_of_seq_request",
            "rcvd_seq_err", "local_ack_timeout_err", "completer_retry_err");
    private final long windowMillis;
    private final Map<PortKey, ArrayDeque<Snapshot>> ports = new HashMap<>();

    private record Snapshot(long timestampMillis, Map<String, Long> values) {
    }

    PathCounters(long windowMillis) {
        this.windowMillis = windowMillis;
    }

    /** The counters of {@code port} from a sample taken at {@code timestampMillis}. */
    synchronized void record(PortKey key, IbPort port, long timestampMillis) {
        Map<String, Long> values = new LinkedHashMap<>();
        PORT_COUNTERS.forEach(name -> put(values, name, port.counters().get(name)));
        if (port.ethtool() != null) {
            for (int priority : LosslessPriorities.of(port).priorities()) {
                for (String direction : List.of("rx", "tx")) {
                    String name = direction + "_prio" + priority + "_pause";
                    put(values, name, port.ethtool().raw().get(name));
                }
            }
        }
        HW_COUNTERS.forEach(name -> put(values, name, port.hwCounters().get(name)));
        ArrayDeque<Snapshot> snapshots = ports.computeIfAbsent(key, k -> new ArrayDeque<>());
        if (snapshots.isEmpty() || snapshots.peekLast().timestampMillis() < timestampMillis) {
            snapshots.addLast(new Snapshot(timestampMillis, values));
        }
        // keep one snapshot at or before the window's start: the base of the window's deltas
        while (snapshots.size() > 1 && second(snapshots).timestampMillis() <= timestampMillis - windowMillis) {
            snapshots.removeFirst();
        }
    }

    private static Snapshot second(ArrayDeque<Snapshot> snapshots) {
        Iterator<Snapshot> it = snapshots.iterator();
        it.next();
        return it.next();
    }

    private static void put(Map<String, Long> values, String name, Long value) {
        if (value != null) {
            values.put(name, value);
        }
    }

    /** Forgets the ports that are no longer in the mesh. */
    synchronized void retain(Set<PortKey> keys) {
        ports.keySet().retainAll(keys);
    }

    /**
     * How much each counter of {@code port} rose over the window (from the oldest snapshot kept to the newest); a
     * counter that went down (reset) or is missing at either end is left out. Empty for an unknown port.
     */
    synchronized Map<String, Long> deltas(PortKey port) {
        ArrayDeque<Snapshot> snapshots = ports.get(port);
        Map<String, Long> deltas = new LinkedHashMap<>();
        if (snapshots == null || snapshots.isEmpty()) {
            return deltas;
        }
        Map<String, Long> first = snapshots.peekFirst().values();
        snapshots.peekLast().values().forEach((name, value) -> {
            Long base = first.get(name);
            if (base != null && Long.compareUnsigned(value, base) >= 0) {
                deltas.put(name, value - base);
            }
        });
        return deltas;
    }
}
