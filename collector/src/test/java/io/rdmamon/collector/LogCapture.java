package io.rdmamon.collector;

import java.text.MessageFormat;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/** Collects the formatted messages logged under a logger name (System.Logger goes to java.util.logging here). */
public final class LogCapture extends Handler implements AutoCloseable {
    private final Logger logger; // held: java.util.logging keeps loggers only weakly
    private final List<String> messages = new ArrayList<>();

    private LogCapture(Logger logger) {
        this.logger = logger;
    }

    /** Captures everything logged under {@code name} (a class or a package prefix) until closed. */
    public static LogCapture of(String name) {
        LogCapture capture = new LogCapture(Logger.getLogger(name));
        capture.logger.addHandler(capture);
        return capture;
    }

    /** The messages so far that contain {@code text}. */
    public synchronized List<String> containing(String text) {
        return messages.stream().filter(m -> m.contains(text)).toList();
    }

    @Override
    public synchronized void publish(LogRecord record) {
        messages.add(record.getParameters() == null ? record.getMessage()
                : MessageFormat.format(record.getMessage(), record.getParameters()));
    }

    @Override
    public void flush() {
    }

    @Override
    public void close() {
        logger.removeHandler(this);
    }
}
