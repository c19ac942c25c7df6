package io.rdmamon.agent.ethtool;

import io.rdmamon.agent.sysfs.ProblemText;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;

/**
 * The pure parser of {@code ethtool -S} text into raw name → value. The typed view of the names
 * (per-priority counters, PFC-enabled priorities) is derived from them in the model, for agent and
 * collector alike: {@link io.rdmamon.protocol.model.EthtoolStats#of}.
 */
public final class EthtoolStatsParser {
    static final String HEADER = "NIC statistics:";
    private static final byte[] HEADER_BYTES = HEADER.getBytes(StandardCharsets.US_ASCII);
    /** Up to eighteen digits never exceed a long; more go through the text parser's unsigned parse. */
    private static final int MAX_FAST_DIGITS = 18;

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
     * {@link #parseText} of {@code bytes} read as text, parsed straight from the bytes without splitting the
     * text into lines and substrings; null when the bytes are anything but the usual case (printable ASCII,
     * blanks, tabs and line ends; a valid capture; values of at most eighteen digits), which the caller then
     * gives to {@link #parseText}, so that results and refusals stay exactly its own. A capture is parsed on
     * every sample of a host root that is not {@code /}, and mostly lists the names of the sample before:
     * while its names are {@code known} (the names of an earlier result, in order), those strings and that
     * very list are used again instead of new ones.
     */
    public static RawStatistics parseUsualAscii(byte[] bytes, List<String> known) {
        List<String> names = null; // made only once a name is not the known one at its place
        long[] values = new long[known.isEmpty() ? 64 : known.size()];
        int count = 0;
        boolean headerSeen = false;
        int lineStart = 0;
        while (lineStart <= bytes.length) {
            int lineEnd = lineStart;
            while (lineEnd < bytes.length && bytes[lineEnd] != '\n') {
                byte b = bytes[lineEnd];
                if ((b < 0x20 && b != '\t' && b != '\r') || b > 0x7e) {
                    return null;
                }
                lineEnd++;
            }
            int start = skipBlanks(bytes, lineStart, lineEnd);
            int end = trimBlanks(bytes, start, lineEnd);
            int next = lineEnd + 1;
            if (start == end || (!headerSeen && bytes[start] == '#')) {
                lineStart = next;
                continue;
            }
            if (!headerSeen) {
                if (!Arrays.equals(bytes, start, end, HEADER_BYTES, 0, HEADER_BYTES.length)) {
                    return null;
                }
                headerSeen = true;
                lineStart = next;
                continue;
            }
            int colon = end - 1;
            while (colon >= start && bytes[colon] != ':') {
                colon--;
            }
            int valueStart = skipBlanks(bytes, colon + 1, end);
            if (colon <= start || valueStart == end || end - valueStart > MAX_FAST_DIGITS) {
                return null;
            }
            long value = 0;
            for (int i = valueStart; i < end; i++) {
                int digit = bytes[i] - '0';
                if (digit < 0 || digit > 9) {
                    return null;
                }
                value = value * 10 + digit;
            }
            int nameEnd = trimBlanks(bytes, start, colon);
            if (names == null && !(count < known.size() && isAscii(known.get(count), bytes, start, nameEnd))) {
                names = new ArrayList<>(known.subList(0, count));
            }
            if (names != null) {
                names.add(new String(bytes, start, nameEnd - start, StandardCharsets.ISO_8859_1));
            }
            if (count == values.length) {
                values = Arrays.copyOf(values, count * 2);
            }
            values[count++] = value;
            lineStart = next;
        }
        if (!headerSeen) {
            return null;
        }
        if (names == null && count == known.size()) {
            // the known names are distinct: no name printed twice
            return new RawStatistics(known, count == values.length ? values : Arrays.copyOf(values, count));
        }
        if (names == null) {
            names = known.subList(0, count);
        }
        LinkedHashMap<String, Long> stats = new LinkedHashMap<>(count * 4 / 3 + 1);
        for (int i = 0; i < count; i++) {
            stats.putIfAbsent(names.get(i), values[i]); // a name printed twice keeps its first value
        }
        return RawStatistics.of(stats);
    }

    /** Whether {@code name} is the ASCII text of {@code bytes[from, to)}. */
    private static boolean isAscii(String name, byte[] bytes, int from, int to) {
        if (name.length() != to - from) {
            return false;
        }
        for (int i = 0; i < name.length(); i++) {
            if (name.charAt(i) != bytes[from + i]) {
                return false;
            }
        }
        return true;
    }

    /** The first index from {@code from} that is not a blank ({@code strip}'s whitespace among the usual bytes). */
    private static int skipBlanks(byte[] bytes, int from, int to) {
        while (from < to && isBlank(bytes[from])) {
            from++;
        }
        return from;
    }

    /** The end of {@code [from, to)} without its trailing blanks. */
    private static int trimBlanks(byte[] bytes, int from, int to) {
        while (to > from && isBlank(bytes[to - 1])) {
            to--;
        }
        return to;
    }

    private static boolean isBlank(byte b) {
        return b == ' ' || b == '\t' || b == '\r';
    }
}
