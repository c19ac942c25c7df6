package io.rdmamon.agent.ethtool;

import io.rdmamon.agent.sysfs.ProblemText;
import io.rdmamon.protocol.model.EthtoolStats;
import io.rdmamon.protocol.model.PriorityCounters;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * Pure parsers for {@code ethtool -S} statistics: the program's text, and the typed view of the
 * mlx5 names that matter for RoCE QoS (torvalds/linux {@code en_stats.c}; rdma-facts.md §3.1).
 */
public final class EthtoolStatsParser {
    static final String HEADER = "NIC statistics:";
    /** {@code NUM_PPORT_PRIO}: 802.1p user priorities 0..7. */
    static final int PRIORITY_COUNT = 8;
    static final List<String> VPORT_RDMA_NAMES = List.of(
            "rx_vport_rdma_unicast_packets", "rx_vport_rdma_unicast_bytes",
            "tx_vport_rdma_unicast_packets", "tx_vport_rdma_unicast_bytes",
            "rx_vport_rdma_multicast_packets", "rx_vport_rdma_multicast_bytes",
            "tx_vport_rdma_multicast_packets", "tx_vport_rdma_multicast_bytes");
    static final String PAUSE_STORM_WARNING = "tx_pause_storm_warning_events";
    static final String PAUSE_STORM_ERROR = "tx_pause_storm_error_events";

    private EthtoolStatsParser() {
    }

    /**
     * The text {@code ethtool -S <if>} prints: optional {@code #} comment lines (a capture may start
     * with {@code # ethtool -S eth2}), the line {@code NIC statistics:}, then one {@code name: value}
     * per line, indented. The value follows the last colon, because some drivers put colons in
     * names (bnxt_en: {@code [0]: rx_ucast_packets}). A name printed twice keeps its first value.
     *
     * @throws IllegalArgumentException naming the line number and quoting the line it refused (escaped and
     *                                  cut: the capture is untrusted text)
     */
    public static LinkedHashMap<String, Long> parseText(String text) {
        LinkedHashMap<String, Long> stats = new LinkedHashMap<>();
        String[] lines = text.split("\n", -1);
        boolean headerSeen = false;
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i].strip();
            if (line.isEmpty() || (!headerSeen && line.startsWith("#"))) {
                continue;
            }
            if (!headerSeen) {
                if (!line.equals(HEADER)) {
                    throw new IllegalArgumentException("line " + (i + 1) + ": expected \"" + HEADER + "\", got " + ProblemText.quote(line));
                }
                headerSeen = true;
                continue;
            }
            int colon = line.lastIndexOf(':');
            if (colon <= 0) {
                throw new IllegalArgumentException("line " + (i + 1) + ": expected \"<name>: <value>\", got " + ProblemText.quote(line));
            }
            String name = line.substring(0, colon).strip();
            String value = line.substring(colon + 1).strip();
            try {
                stats.putIfAbsent(name, Long.parseUnsignedLong(value));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("line " + (i + 1) + ": value of " + name
                        + " is not an unsigned 64-bit number: " + ProblemText.quote(value));
            }
        }
        if (!headerSeen) {
            throw new IllegalArgumentException("no \"" + HEADER + "\" line (empty or not ethtool -S output)");
        }
        return stats;
    }

    /**
     * The typed view of a netdev's statistics. PFC-enabled priorities are those with an
     * {@code rx_prioN_pause} or {@code tx_prioN_pause} counter: mlx5 creates those names only for
     * priorities whose PFC is enabled, which is how the lossless priority is learned (never assumed).
     */
    public static EthtoolStats toStats(String netdev, Map<String, Long> raw) {
        List<PriorityCounters> priorities = new ArrayList<>();
        SortedSet<Integer> pfcEnabled = new TreeSet<>();
        for (int prio = 0; prio < PRIORITY_COUNT; prio++) {
            String rx = "rx_prio" + prio;
            String tx = "tx_prio" + prio;
            PriorityCounters counters = new PriorityCounters(prio,
                    raw.get(rx + "_bytes"), raw.get(rx + "_packets"), raw.get(rx + "_discards"),
                    raw.get(tx + "_bytes"), raw.get(tx + "_packets"),
                    raw.get(rx + "_pause"), raw.get(rx + "_pause_duration"),
                    raw.get(tx + "_pause"), raw.get(tx + "_pause_duration"),
                    raw.get(rx + "_pause_transition"));
            if (hasAny(counters)) {
                priorities.add(counters);
            }
            if (raw.containsKey(rx + "_pause") || raw.containsKey(tx + "_pause")) {
                pfcEnabled.add(prio);
            }
        }
        Map<String, Long> vportRdma = new LinkedHashMap<>();
        for (String name : VPORT_RDMA_NAMES) {
            Long value = raw.get(name);
            if (value != null) {
                vportRdma.put(name, value);
            }
        }
        return new EthtoolStats(netdev, raw, priorities, pfcEnabled, vportRdma,
                raw.get(PAUSE_STORM_WARNING), raw.get(PAUSE_STORM_ERROR));
    }

    private static boolean hasAny(PriorityCounters c) {
        return c.rxBytes() != null || c.rxPackets() != null || c.rxDiscards() != null
                || c.txBytes() != null || c.txPackets() != null
                || c.rxPauseFrames() != null || c.rxPauseDurationMicros() != null
                || c.txPauseFrames() != null || c.txPauseDurationMicros() != null
                || c.rxPauseTransitions() != null;
    }
}
