package io.rdmamon.cli.node;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code rdmamon perf}: one interval printed exactly as Mellanox's {@code mlnx_perf}
 * (mlnx-tools {@code python/mlnx_perf}) prints it, so eyes and scripts used to it read it the same:
 * every counter with a positive per-second rate, in kernel order; byte counters as
 * {@code "%30s: %-20s = %-20s"} with Bps and Mbps, others as {@code "%30s: %s"}; then per user
 * priority the transmit Mbps and Tran/sec with their share of the total, and {@code --------}.
 * Pure: no I/O.
 */
public final class MlnxPerfFormat {
    static final String START = "Initializing rdmamon perf...";
    static final String SAMPLING = "Sampling started.";

    /** mlnx_perf's interval source when the driver exports one: milliseconds. */
    private static final String TIMESTAMP = "timestamp";
    private static final Pattern TX_PRIO_BYTES = Pattern.compile("tx_prio_?(\\d+)_bytes");
    private static final Pattern TX_PRIO_PACKETS = Pattern.compile("tx_prio_?(\\d+)_packets");

    private MlnxPerfFormat() {
    }

    /**
     * The lines of one interval.
     *
     * @param perSecond rates of the counters that could be computed, in kernel order
     * @param isBytes   which counters count bytes
     */
    public static List<String> interval(Map<String, Double> perSecond, Predicate<String> isBytes) {
        List<String> lines = new ArrayList<>();
        Map<Integer, Double> upBytes = new LinkedHashMap<>();
        Map<Integer, Double> upPackets = new LinkedHashMap<>();
        boolean somethingPrinted = false;
        for (Map.Entry<String, Double> e : perSecond.entrySet()) {
            String key = e.getKey();
            double rate = e.getValue();
            if (key.equals(TIMESTAMP) || !(rate > 0)) {
                continue;
            }
            if (isBytes.test(key)) {
                lines.add(String.format(Locale.ROOT, "%30s: %-20s = %-20s",
                        key, thous(rate) + " Bps", thous(rate * 8 / 1_000_000) + " Mbps"));
            } else {
                lines.add(String.format(Locale.ROOT, "%30s: %s", key, thous(rate)));
                // as mlnx_perf: the per-UP block and the separator follow only when a
                // non-byte counter moved (packets move whenever bytes do)
                somethingPrinted = true;
            }
            addPriority(TX_PRIO_BYTES, key, rate, upBytes);
            addPriority(TX_PRIO_PACKETS, key, rate, upPackets);
        }
        if (somethingPrinted) {
            double totalBytes = upBytes.values().stream().mapToDouble(Double::doubleValue).sum();
            upBytes.forEach((up, rate) -> lines.add(String.format(Locale.ROOT, "%30s: %-20s Mbps = %-2.2f%%",
                    "UP " + up, thous(rate * 8 / 1_000_000), 100.0 * rate / totalBytes)));
            double totalPackets = upPackets.values().stream().mapToDouble(Double::doubleValue).sum();
            upPackets.forEach((up, rate) -> lines.add(String.format(Locale.ROOT, "%30s: %-20s Tran/sec = %-2.2f%%",
                    "UP " + up, thous(rate), 100.0 * rate / totalPackets)));
            lines.add("--------");
        }
        return lines;
    }

    /**
     * The interval's length: from the driver's {@code timestamp} counter (ms) when both reads
     * have one and it advanced, as mlnx_perf does, else the measured wall-clock time.
     */
    public static double intervalSeconds(Map<String, Long> previous, Map<String, Long> current, double measured) {
        Long before = previous.get(TIMESTAMP);
        Long after = current.get(TIMESTAMP);
        if (before != null && after != null && after > before) {
            return (after - before) / 1000.0;
        }
        return measured;
    }

    /**
     * mlnx_perf's {@code thous()}: comma-grouped whole part, then {@code "." + int(frac * 100)}
     * only when that is positive. Its quirk is kept: 2.05 prints as {@code 2.5} (no leading zero).
     */
    public static String thous(double x) {
        long whole = (long) x;
        int hundredths = (int) ((x - whole) * 100);
        String grouped = String.format(Locale.ROOT, "%,d", whole);
        return hundredths > 0 ? grouped + "." + hundredths : grouped;
    }

    private static void addPriority(Pattern pattern, String key, double rate, Map<Integer, Double> byPriority) {
        // mlnx_perf uses re.match: anchored at the start, not at the end
        Matcher m = pattern.matcher(key);
        if (m.lookingAt()) {
            byPriority.merge(Integer.parseInt(m.group(1)), rate, Double::sum);
        }
    }
}
