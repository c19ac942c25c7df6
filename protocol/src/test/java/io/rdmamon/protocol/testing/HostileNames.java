package io.rdmamon.protocol.testing;

import io.rdmamon.protocol.model.GidEntry;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

/**
 * Names a hostile or broken host may list that stay within the wire's name, count and label-byte limits
 * ({@code WireLimits}) and still encode past the collector's frame: few label bytes for many JSON bytes.
 */
public final class HostileNames {
    private static final String DIGITS = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
    /** Characters of an {@link #escaped} name. */
    public static final int ESCAPED_CHARS = 128;

    private HostileNames() {
    }

    /** {@code count} distinct names of one to three characters, each valued 2^64-1: 21 bytes a value on the wire. */
    public static Map<String, Long> oneToThreeChars(int count) {
        Map<String, Long> names = new LinkedHashMap<>();
        IntStream.range(0, count).forEach(i -> names.put(base62(i), -1L));
        return names;
    }

    /** {@code count} distinct names of {@value #ESCAPED_CHARS} quotes and backslashes: each is two bytes escaped. */
    public static Map<String, Long> escaped(int count) {
        Map<String, Long> names = new LinkedHashMap<>();
        IntStream.range(0, count).forEach(i -> names.put(escapedName(i), 1L));
        return names;
    }

    /** {@code count} GIDs of a few label bytes each: about 70 bytes apiece in a layout. */
    public static List<GidEntry> gids(int count) {
        return IntStream.range(0, count)
                .mapToObj(i -> new GidEntry(i, "fe80::" + Integer.toHexString(i), "IB", null, null)).toList();
    }

    private static String base62(int i) {
        StringBuilder name = new StringBuilder();
        do {
            name.append(DIGITS.charAt(i % DIGITS.length()));
            i /= DIGITS.length();
        } while (i > 0);
        return name.toString();
    }

    /** Backslashes, then a quote or backslash for each bit of {@code i}: distinct for every {@code i}. */
    private static String escapedName(int i) {
        StringBuilder name = new StringBuilder("\\".repeat(ESCAPED_CHARS - Integer.SIZE));
        for (int bit = 0; bit < Integer.SIZE; bit++) {
            name.append((i >>> bit & 1) == 0 ? '"' : '\\');
        }
        return name.toString();
    }
}
