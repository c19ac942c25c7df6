package io.rdmamon.protocol.wire;

/**
 * A frame that cannot be accepted; {@link #getMessage()} is a one-line reason fit for a close frame or a log.
 * Reasons quote wire input, which a hostile peer makes as long and as strange as it likes: the reason is
 * bounded and made printable here, at construction, so that no caller can log or send an unbounded one.
 */
public final class FrameException extends Exception {
    /** Longest reason kept: a log line, never a copy of the frame. */
    public static final int MAX_REASON_CHARS = 512;
    /** Characters of wire text that {@link #quote} keeps. */
    static final int QUOTED_CHARS = 64;

    public FrameException(String reason) {
        super(printable(reason, MAX_REASON_CHARS));
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
    static String printable(String text, int max) {
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
            if (WireText.printable(c) || Character.isSurrogate(c) && paired(text, i)) {
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
}
