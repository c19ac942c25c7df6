package io.rdmamon.protocol.nccl;

import java.util.ArrayList;
import java.util.List;

/**
 * An {@code NCCL_IB_HCA} value as NCCL reads it (NVIDIA/nccl {@code src/transport/net_ib/init.cc},
 * {@code src/misc/utils.cc parseStringList/matchIfList}; docs/reference/qos-dcb.md §4): a leading {@code ^} excludes
 * the listed
 * ports instead of selecting them, then a leading {@code =} makes names exact instead of prefixes ({@code mlx5_1}
 * also selects {@code mlx5_10}); entries are comma-separated {@code name[:port[:rail[:plane]]]}, an entry without a
 * port matches every port of the device. Nothing is trimmed: NCCL compares {@code " mlx5_1"} with its leading space.
 * An empty list matches every port, so {@code ^} alone excludes every port, as in NCCL.
 *
 * @param exclude the value starts with {@code ^}
 * @param exact   {@code =} follows (or starts the value)
 * @param entries the entries with a non-empty name, in order
 */
public record NcclIfList(boolean exclude, boolean exact, List<Entry> entries) {
    /** One entry: a device name (prefix unless exact) and a port, -1 for any. */
    public record Entry(String name, int port) {
        boolean matches(String device, int devicePort, boolean exact) {
            return (exact ? device.equals(name) : device.startsWith(name)) && (port == -1 || port == devicePort);
        }

        /** The entry as written: {@code name} or {@code name:port}. */
        @Override
        public String toString() {
            return port == -1 ? name : name + ":" + port;
        }
    }

    public NcclIfList {
        entries = List.copyOf(entries);
    }

    /** The list NCCL reads from {@code value}; null when the variable is unset (NCCL then uses every port). */
    public static NcclIfList parse(String value) {
        if (value == null) {
            return null;
        }
        String v = value;
        boolean exclude = v.startsWith("^");
        if (exclude) {
            v = v.substring(1);
        }
        boolean exact = v.startsWith("=");
        if (exact) {
            v = v.substring(1);
        }
        List<Entry> entries = new ArrayList<>();
        for (String item : v.split(",")) {
            String[] parts = item.split(":", -1);
            if (parts[0].isEmpty()) {
                continue; // strtok_r skips empty items, and an empty name is no entry
            }
            entries.add(new Entry(parts[0], parts.length > 1 && !parts[1].isEmpty() ? atoi(parts[1]) : -1));
        }
        return new NcclIfList(exclude, exact, entries);
    }

    /** Whether NCCL uses port {@code port} of {@code device} under this list (before its own state checks). */
    public boolean selects(String device, int port) {
        boolean listed = entries.isEmpty() || entries.stream().anyMatch(e -> e.matches(device, port, exact));
        return listed ^ exclude;
    }

    /** Whether {@code entry} (one of {@link #entries}) matches port {@code port} of {@code device}. */
    public boolean matches(Entry entry, String device, int port) {
        return entry.matches(device, port, exact);
    }

    /** C's {@code atoi}: leading blanks, a sign, then digits up to the first other character; 0 when none. */
    static int atoi(String text) {
        int i = 0;
        while (i < text.length() && Character.isWhitespace(text.charAt(i))) {
            i++;
        }
        boolean negative = i < text.length() && text.charAt(i) == '-';
        if (i < text.length() && (text.charAt(i) == '-' || text.charAt(i) == '+')) {
            i++;
        }
        long value = 0;
        while (i < text.length() && text.charAt(i) >= '0' && text.charAt(i) <= '9' && value <= Integer.MAX_VALUE) {
            value = value * 10 + (text.charAt(i++) - '0');
        }
        value = negative ? -value : value;
        return (int) Math.max(Integer.MIN_VALUE, Math.min(Integer.MAX_VALUE, value));
    }
}
