package io.rdmamon.cli.log;

import java.io.UnsupportedEncodingException;
import java.util.Locale;
import java.util.logging.ConsoleHandler;
import java.util.logging.Formatter;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogManager;
import java.util.logging.Logger;

/**
 * The log formats of the daemons ({@code collector}, {@code agent}, {@code demo}: {@code --log-format}), and their
 * installation on java.util.logging, which the JDK's System.Logger, Vert.x, Netty and Hazelcast all log through.
 */
public enum LogFormat {
    /** {@link TextLogFormatter}: one event per line, for people and {@code journalctl}. */
    TEXT,
    /** {@link JsonLogFormatter}: one JSON object per line, for log shippers. */
    JSON;

    /** The format named {@code name} ({@code text}, {@code json}); null for any other name. */
    public static LogFormat parse(String name) {
        return switch (name == null ? "" : name.toLowerCase(Locale.ROOT)) {
            case "text" -> TEXT;
            case "json" -> JSON;
            default -> null;
        };
    }

    public Formatter formatter() {
        return this == TEXT ? new TextLogFormatter() : new JsonLogFormatter();
    }

    /**
     * Makes the root logger write this format to stderr, in UTF-8: each console handler the JDK's default
     * configuration made (java.util.logging's two-line {@code SimpleFormatter}) is replaced by one of ours, and ours
     * by the new one when called again. Other handlers (a {@code FileHandler} from a
     * {@code java.util.logging.config.file}) are left as they were. Levels stay the loggers' own.
     */
    public void install() {
        Logger root = LogManager.getLogManager().getLogger("");
        for (Handler handler : root.getHandlers()) {
            if (handler instanceof ConsoleHandler) {
                root.removeHandler(handler);
                handler.close();
            }
        }
        ConsoleHandler handler = new ConsoleHandler();
        handler.setFormatter(formatter());
        handler.setLevel(Level.ALL);
        try {
            handler.setEncoding("UTF-8");
        } catch (UnsupportedEncodingException e) {
            throw new IllegalStateException(e); // every JVM has UTF-8
        }
        root.addHandler(handler);
    }
}
