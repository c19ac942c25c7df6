package io.rdmamon.agent.ethtool;

import io.rdmamon.agent.sysfs.ProblemText;

import java.util.LinkedHashMap;

/**
 * The pure parser of {@code ethtool -S} text into raw name → value. The typed view of the names
 * (per-priority counters, PFC-enabled priorities) is derived from them in the model, for agent and
 * collector alike: {@link io.rdmamon.protocol.model.EthtoolStats#of}.
 */
public final class EthtoolStatsParser {
    static final String HEADER = "NIC statistics:";

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
}
