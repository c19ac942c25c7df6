package io.rdmamon.agent.sysfs;

/**
 * Quotes file content for a problem line. The content is untrusted: a sick or hostile file can hold
 * NUL bytes, control characters, bytes that are not UTF-8 or a page of garbage, and the problem line
 * ends up in a source status, a terminal and the collector's pages.
 */
public final class ProblemText {
    /** Longer content is cut: the start is enough to recognise it, and one problem must not swamp a status. */
    static final int MAX_QUOTED_CHARS = 80;

    private ProblemText() {
    }

    /**
     * {@code text} in double quotes with control characters, {@code "} and {@code \} escaped
     * ({@code \0}, {@code \n}, {@code \x7f}, {@code \ufffd} for bytes that were not UTF-8), cut after
     * {@value #MAX_QUOTED_CHARS} characters with {@code …(<n> chars)}.
     */
    public static String quote(String text) {
        StringBuilder out = new StringBuilder(Math.min(text.length(), MAX_QUOTED_CHARS) + 2).append('"');
        int shown = Math.min(text.length(), MAX_QUOTED_CHARS);
        for (int i = 0; i < shown; i++) {
            char c = text.charAt(i);
            switch (c) {
                case '\0' -> out.append("\\0");
                case '\n' -> out.append("\\n");
                case '\t' -> out.append("\\t");
                case '\r' -> out.append("\\r");
                case '"', '\\' -> out.append('\\').append(c);
                default -> {
                    if (c < 0x20 || c == 0x7f) {
                        out.append(String.format("\\x%02x", (int) c));
                    } else if (c == '\ufffd') {
                        out.append("\\ufffd");
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
        if (text.length() > shown) {
            out.append("…(").append(text.length()).append(" chars)");
        }
        return out.toString();
    }
}
