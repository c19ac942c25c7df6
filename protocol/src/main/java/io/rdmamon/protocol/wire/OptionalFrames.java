package io.rdmamon.protocol.wire;

import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Set;

/**
 * The value of {@link WireFormat#ACCEPTS_HEADER}: a comma-separated list of optional frame types. Parsing is lenient
 * (blanks, case, empty items, unknown types are kept or skipped, never an error) because the header comes from a
 * collector of another version; an agent only asks whether a type it knows is in the set.
 */
public final class OptionalFrames {
    /** Frame types are short lowercase words; anything longer is not one of ours. */
    private static final int MAX_TYPE_LENGTH = 64;

    private OptionalFrames() {
    }

    /** The types listed in {@code header}; empty for null (a collector that predates optional frames). */
    public static Set<String> parse(String header) {
        Set<String> types = new LinkedHashSet<>();
        if (header == null) {
            return Set.of();
        }
        for (String item : header.split(",")) {
            String type = item.strip().toLowerCase(Locale.ROOT);
            if (!type.isEmpty() && type.length() <= MAX_TYPE_LENGTH) {
                types.add(type);
            }
        }
        return Set.copyOf(types);
    }

    /** The header value for {@code types}, in their order. */
    public static String header(Collection<String> types) {
        return String.join(", ", types);
    }
}
