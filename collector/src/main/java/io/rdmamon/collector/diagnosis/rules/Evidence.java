package io.rdmamon.collector.diagnosis.rules;

import io.rdmamon.protocol.model.TransceiverModule;

import java.time.Duration;
import java.util.Locale;
import java.util.Set;
import java.util.StringJoiner;

/** How the rules write numbers in their evidence, alike for every rule. */
final class Evidence {
    private Evidence() {
    }

    static String percent(double share) {
        return String.format(Locale.ROOT, share < 0.1 && share > 0 ? "%.1f%%" : "%.0f%%", share * 100);
    }

    static String perSecond(double value) {
        return String.format(Locale.ROOT, value >= 100 ? "%,.0f/s" : "%.1f/s", value);
    }

    static String bytesPerSecond(double value) {
        String[] units = {"B/s", "kB/s", "MB/s", "GB/s", "TB/s"};
        int i = 0;
        while (value >= 1000 && i < units.length - 1) {
            value /= 1000;
            i++;
        }
        return String.format(Locale.ROOT, "%.1f %s", value, units[i]);
    }

    static String gbps(long bytesPerSecond) {
        double gbps = bytesPerSecond / 125_000_000.0;
        return (gbps == Math.rint(gbps) ? String.format(Locale.ROOT, "%.0f", gbps) : String.format(Locale.ROOT, "%.1f", gbps))
                + " Gb/s";
    }

    /** A window as people say it: "10 min", "24 h", "90 s". */
    static String duration(Duration window) {
        long seconds = window.toSeconds();
        if (seconds % 3600 == 0) {
            return seconds / 3600 + " h";
        }
        return seconds % 60 == 0 ? seconds / 60 + " min" : seconds + " s";
    }

    /** Optical power as ethtool prints it: {@code -21.50 dBm}; no light is {@code -inf dBm}. */
    static String dbm(double watts) {
        return watts > 0 ? String.format(Locale.ROOT, "%.2f dBm", 10 * Math.log10(watts * 1e3)) : "-inf dBm";
    }

    /** A module as people name it: {@code QT14241028003 (QSFPTEK QT-QSFP28-ER4)}. */
    static String module(TransceiverModule m) {
        String serial = m.serial() == null ? "without serial" : m.serial();
        String name = ((m.vendor() == null ? "" : m.vendor()) + " " + (m.part() == null ? "" : m.part())).strip();
        return serial + (name.isEmpty() ? "" : " (" + name + ")");
    }

    /** Priorities as "3" or "3, 4". */
    static String priorities(Set<Integer> priorities) {
        StringJoiner joiner = new StringJoiner(", ");
        priorities.forEach(p -> joiner.add(Integer.toString(p)));
        return joiner.toString();
    }
}
