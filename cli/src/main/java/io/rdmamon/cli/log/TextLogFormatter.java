package io.rdmamon.cli.log;

import java.util.logging.Formatter;
import java.util.logging.LogRecord;

/**
 * One event per line: {@code 2026-11-26T14:20:30.123Z INFO  AgentConnection message}, the level padded to five,
 * the logger's last name segment; a throwable adds {@code  | Class: message} (and its root cause). Line breaks and
 * other control characters in the message are written as {@code \n}, {@code \r}, {@code \t} or {@code \\uXXXX}, so
 * that a multi-line message (Hazelcast's member list) stays on its line. Only an unexpected error
 * ({@link LogLines#withStack}) adds its stack trace after the line, each of its lines starting with a tab, which
 * log shippers' multi-line rules join to the event.
 */
public final class TextLogFormatter extends Formatter {
    @Override
    public String format(LogRecord record) {
        StringBuilder line = new StringBuilder(160);
        line.append(LogLines.timestamp(record.getInstant())).append(' ');
        String level = LogLines.level(record.getLevel());
        line.append(level);
        line.append(" ".repeat(Math.max(1, 6 - level.length())));
        line.append(shortName(record.getLoggerName())).append(' ');
        escape(LogLines.message(this, record), line);
        if (record.getThrown() != null) {
            line.append(" | ");
            escape(LogLines.summary(record.getThrown()), line);
        }
        line.append('\n');
        if (LogLines.withStack(record)) {
            for (String stackLine : LogLines.stack(record.getThrown()).split("\\R")) {
                line.append('\t').append(stackLine.startsWith("\t") ? stackLine.substring(1) : stackLine).append('\n');
            }
        }
        return line.toString();
    }

    /** The last segment of a dotted logger name ({@code io.rdmamon.collector.Collector} → {@code Collector}). */
    static String shortName(String logger) {
        if (logger == null || logger.isEmpty()) {
            return "root";
        }
        return logger.substring(logger.lastIndexOf('.') + 1);
    }

    private static void escape(String text, StringBuilder out) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20 || c == 0x7f || c == '\u0085' || c == '\u2028' || c == '\u2029') {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
    }
}
