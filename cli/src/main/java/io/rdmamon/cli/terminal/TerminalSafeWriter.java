package io.rdmamon.cli.terminal;

import java.io.FilterWriter;
import java.io.IOException;
import java.io.Writer;

/**
 * Everything the {@code rdmamon} command prints goes through here, so that text read from a host (a sysfs file, a
 * process name, a kubelet's error message, a switch's LLDP name) cannot drive the operator's terminal: control
 * characters other than newline and tab (ESC and the rest of C0, DEL, C1) and the Unicode bidirectional overrides are
 * written as visible escapes, {@code \x1b} or {@code \u202e}. A carriage return is escaped too, since it lets a value
 * overwrite the start of its line. JSON output is unchanged: its encoder already escapes what JSON must.
 */
public final class TerminalSafeWriter extends FilterWriter {

    public TerminalSafeWriter(Writer out) {
        super(out);
    }

    /** Whether {@code c} is written as an escape rather than as itself. */
    static boolean unsafe(char c) {
        return (c < 0x20 && c != '\n' && c != '\t') || (c >= 0x7f && c <= 0x9f)
                || (c >= '\u202a' && c <= '\u202e') || (c >= '\u2066' && c <= '\u2069');
    }

    /** {@code text} as this writer prints it. */
    public static String escape(String text) {
        StringBuilder out = new StringBuilder(text.length());
        for (int i = 0; i < text.length(); i++) {
            append(text.charAt(i), out);
        }
        return out.toString();
    }

    private static void append(char c, StringBuilder out) {
        if (!unsafe(c)) {
            out.append(c);
        } else if (c <= 0xff) {
            out.append(String.format("\\x%02x", (int) c));
        } else {
            out.append(String.format("\\u%04x", (int) c));
        }
    }

    @Override
    public void write(int c) throws IOException {
        if (unsafe((char) c)) {
            out.write(escape(String.valueOf((char) c)));
        } else {
            out.write(c);
        }
    }

    @Override
    public void write(char[] chars, int off, int len) throws IOException {
        write(new String(chars, off, len), 0, len);
    }

    @Override
    public void write(String text, int off, int len) throws IOException {
        String part = text.substring(off, off + len);
        out.write(part.chars().anyMatch(c -> unsafe((char) c)) ? escape(part) : part);
    }
}
