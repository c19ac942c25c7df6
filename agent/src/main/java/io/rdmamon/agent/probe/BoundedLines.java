package io.rdmamon.agent.probe;

import java.io.IOException;
import java.io.Reader;
import java.util.function.Consumer;

/**
 * Splits a child's output into lines of at most {@code maxChars} characters. {@link java.io.BufferedReader#readLine}
 * holds a whole line however long it is, so one endless line (a 10 MB line, or a program that never prints a newline)
 * would take the heap; here an overlong line keeps its first {@code maxChars} characters and a note of how many were
 * cut, and memory stays at one line whatever the child prints.
 */
public final class BoundedLines {
    /** perftest's longest real line (a result row or a banner) is under 200 characters. */
    public static final int DEFAULT_MAX_CHARS = 4096;

    private BoundedLines() {
    }

    /** Passes every line of {@code in} (without its {@code \n} or {@code \r\n}) to {@code line} until the end. */
    public static void forEach(Reader in, int maxChars, Consumer<String> line) throws IOException {
        StringBuilder current = new StringBuilder();
        long cut = 0;
        char[] buffer = new char[8192];
        boolean pending = false;
        for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
            for (int i = 0; i < n; i++) {
                char c = buffer[i];
                if (c == '\n') {
                    line.accept(finish(current, cut));
                    current.setLength(0);
                    cut = 0;
                    pending = false;
                } else if (current.length() < maxChars) {
                    current.append(c);
                    pending = true;
                } else {
                    cut++;
                }
            }
        }
        if (pending || cut > 0) {
            line.accept(finish(current, cut));
        }
    }

    private static String finish(StringBuilder current, long cut) {
        int end = current.length();
        if (cut == 0 && end > 0 && current.charAt(end - 1) == '\r') {
            end--;
        }
        String text = current.substring(0, end);
        return cut == 0 ? text : text + "… (" + cut + " more characters cut)";
    }
}
