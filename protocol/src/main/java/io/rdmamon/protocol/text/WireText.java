package io.rdmamon.protocol.text;

/**
 * What a string from the wire may hold before the collector logs it, serves it or labels a series with it:
 * no control characters (a newline forges log lines, an escape sequence rewrites a terminal), no format
 * characters (bidirectional overrides), no line or paragraph separators, no unpaired surrogate halves; and how a
 * reason quotes such a string, bounded and printable.
 */
public final class WireText {
    /** Characters of wire text that {@link #quote} keeps. */
    static final int QUOTED_CHARS = 64;

    private WireText() {
    }

    /** Whether {@code c} may appear in a name (and, but for tab, newline and carriage return, in a text). */
    public static boolean printable(char c) {
        return switch (Character.getType(c)) {
            case Character.CONTROL, Character.FORMAT, Character.LINE_SEPARATOR, Character.PARAGRAPH_SEPARATOR,
                 Character.SURROGATE, Character.UNASSIGNED, Character.PRIVATE_USE -> false;
            default -> true;
        };
    }

    /**
     * The index of the first character of {@code text} that is not allowed, or -1. Names allow
     * {@link #printable} characters only; a text ({@code multiline}) also tab, newline and carriage return.
     * Surrogate pairs are allowed, halves alone are not.
     */
    public static int firstInvalid(String text, boolean multiline) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
                i++;
                continue;
            }
            if (!printable(c) && !(multiline && (c == '\t' || c == '\n' || c == '\r'))) {
                return i;
            }
        }
        return -1;
    }

    /**
     * {@code text} from the wire as a reason may quote it: in single quotes, at most {@value #QUOTED_CHARS}
     * characters (then {@code …} and the full length), control and format characters escaped as {@code \\uXXXX}.
     */
    public static String quote(String text) {
        return text == null ? "null" : "'" + printable(text, QUOTED_CHARS) + "'";
    }

    /**
     * At most {@code max} characters of {@code text} (never splitting a surrogate pair), non-printable ones
     * escaped; linear in {@code max}, whatever the length of {@code text}.
     */
    public static String printable(String text, int max) {
        if (text == null) {
            return "null";
        }
        int end = Math.min(text.length(), max);
        if (end < text.length() && Character.isHighSurrogate(text.charAt(end - 1))) {
            end--;
        }
        StringBuilder out = new StringBuilder(end + 16);
        for (int i = 0; i < end; i++) {
            char c = text.charAt(i);
            if (printable(c) || Character.isSurrogate(c) && paired(text, i)) {
                out.append(c);
            } else {
                out.append(String.format("\\u%04x", (int) c));
            }
        }
        if (end < text.length()) {
            out.append("… (").append(text.length()).append(" chars)");
        }
        return out.toString();
    }

    private static boolean paired(String text, int i) {
        char c = text.charAt(i);
        return Character.isHighSurrogate(c) ? i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))
                : i > 0 && Character.isHighSurrogate(text.charAt(i - 1));
    }

    /**
     * {@code text} cut to at most {@code maxChars} characters, its end replaced by {@code …} when it was longer (never
     * splitting a surrogate pair): for a sender whose free text comes from a host and must fit a receiver's limit.
     */
    public static String cut(String text, int maxChars) {
        if (text == null || text.length() <= maxChars) {
            return text;
        }
        int end = maxChars - 1;
        if (Character.isHighSurrogate(text.charAt(end - 1))) {
            end--;
        }
        return text.substring(0, end) + "…";
    }

    /**
     * The UTF-8 length of {@code text} as the collector counts label bytes: a surrogate half counts 2 bytes, so a pair
     * counts the 4 bytes of its code point and a lone half (which the collector refuses anyway) is never free.
     */
    public static long utf8Length(String text) {
        long bytes = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            bytes += c < 0x80 ? 1 : c < 0x800 ? 2 : Character.isSurrogate(c) ? 2 : 3;
        }
        return bytes;
    }
}
