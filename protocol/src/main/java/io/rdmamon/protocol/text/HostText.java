package io.rdmamon.protocol.text;

/**
 * Text read from a host made fit for the wire ({@link WireLimits}): every character the collector refuses is
 * written as a visible {@code \\uXXXX} escape (so an escape sequence in a process name reads {@code \\u001b[31m}),
 * and the result is cut to the limit with {@code …}. Pure; linear in the limit, whatever the input's length.
 */
public final class HostText {
    /** What an empty name from a host is sent as: the collector refuses empty names, and {@code ?} says unknown. */
    public static final String EMPTY_NAME = "?";

    private HostText() {
    }

    /** {@code text} as a name: one line, printable, at most {@code maxChars}, never empty. Null stays null. */
    public static String name(String text, int maxChars) {
        if (text == null) {
            return null;
        }
        return text.isEmpty() ? EMPTY_NAME : clean(text, maxChars, false);
    }

    /** {@code text} as one line of a note: printable, at most {@code maxChars}, empty when it was. Null stays null. */
    public static String line(String text, int maxChars) {
        return text == null ? null : clean(text, maxChars, false);
    }

    /** {@code text} as a free text: printable but for tab, newline and carriage return, at most {@code maxChars}. */
    public static String text(String text, int maxChars) {
        return text == null ? null : clean(text, maxChars, true);
    }

    private static String clean(String text, int maxChars, boolean multiline) {
        if (text.length() <= maxChars && WireText.firstInvalid(text, multiline) < 0) {
            return text;
        }
        // one character more than fits tells cut that the text was longer
        StringBuilder out = new StringBuilder(Math.min(text.length(), maxChars + 1) + 8);
        for (int i = 0; i < text.length() && out.length() <= maxChars; i++) {
            char c = text.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
                out.append(c).append(text.charAt(++i));
            } else if (WireText.printable(c) || multiline && (c == '\t' || c == '\n' || c == '\r')) {
                out.append(c);
            } else {
                out.append(String.format("\\u%04x", (int) c));
            }
        }
        return WireText.cut(out.toString(), maxChars);
    }
}
