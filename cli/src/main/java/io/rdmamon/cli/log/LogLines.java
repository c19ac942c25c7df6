package io.rdmamon.cli.log;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.logging.Formatter;
import java.util.logging.Level;
import java.util.logging.LogRecord;

/**
 * What the two log formats share: the timestamp, the level's name, which events carry a stack trace, and the
 * one-line summary of a throwable.
 *
 * <p>A stack trace is kept for unexpected errors only: an event at SEVERE, or at WARNING with an unchecked
 * throwable (a defect, or Vert.x's blocked-thread report, whose stack says where the loop is stuck). Expected
 * failures (a refused or dropped connection, an I/O error: checked exceptions below SEVERE) get the one-line
 * summary, and a refusal is logged without a throwable at all.
 */
final class LogLines {
    /** ISO-8601 UTC with milliseconds, always three digits ({@link Instant#toString} drops zeros). */
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSS'Z'")
            .withZone(ZoneOffset.UTC);

    private LogLines() {
    }

    static String timestamp(Instant instant) {
        return TIME.format(instant);
    }

    /** ERROR, WARN, INFO, CONFIG, DEBUG, TRACE: the names log shippers and their users expect. */
    static String level(Level level) {
        int value = level.intValue();
        if (value >= Level.SEVERE.intValue()) {
            return "ERROR";
        }
        if (value >= Level.WARNING.intValue()) {
            return "WARN";
        }
        if (value >= Level.INFO.intValue()) {
            return "INFO";
        }
        if (value >= Level.CONFIG.intValue()) {
            return "CONFIG";
        }
        return value >= Level.FINE.intValue() ? "DEBUG" : "TRACE";
    }

    /** Whether the event's stack trace is written: unexpected errors only (see the class comment). */
    static boolean withStack(LogRecord record) {
        Throwable thrown = record.getThrown();
        if (thrown == null) {
            return false;
        }
        int level = record.getLevel().intValue();
        return level >= Level.SEVERE.intValue()
                || level >= Level.WARNING.intValue() && (thrown instanceof RuntimeException || thrown instanceof Error);
    }

    /** {@code Class: message}, then {@code ; caused by Class: message} for the root cause when it is another. */
    static String summary(Throwable thrown) {
        Throwable root = thrown;
        for (int depth = 0; root.getCause() != null && root.getCause() != root && depth < 32; depth++) {
            root = root.getCause();
        }
        String summary = describe(thrown);
        return root == thrown ? summary : summary + "; caused by " + describe(root);
    }

    private static String describe(Throwable t) {
        return t.getMessage() == null ? t.getClass().getName() : t.getClass().getName() + ": " + t.getMessage();
    }

    static String stack(Throwable thrown) {
        StringWriter text = new StringWriter();
        thrown.printStackTrace(new PrintWriter(text));
        return text.toString().stripTrailing();
    }

    /** The record's message with its parameters ({@code {0}}), as {@link Formatter#formatMessage} makes it. */
    static String message(Formatter formatter, LogRecord record) {
        String message = formatter.formatMessage(record);
        return message == null ? "" : message;
    }
}
