package io.rdmamon.collector.config;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Duration;

/** Bad collector configuration; the message names the file, key, environment variable or flag at fault. */
public final class ConfigException extends RuntimeException {
    public ConfigException(String message) {
        super(message);
    }

    public ConfigException(String message, Throwable cause) {
        super(message, cause);
    }

    /** The settings records' check of a count: {@code KEY must be positive: VALUE}. */
    public static void requirePositive(String key, int value) {
        if (value <= 0) {
            throw new ConfigException(key + " must be positive: " + value);
        }
    }

    /** The settings records' check of a time span: {@code KEY must be positive: VALUE}. */
    public static void requirePositive(String key, Duration value) {
        if (value.isNegative() || value.isZero()) {
            throw new ConfigException(key + " must be positive: " + value);
        }
    }

    /**
     * {@code name}, a file named in the config, resolved against {@code baseDir}; {@code key} names it when it cannot
     * be a file name (a NUL character in it).
     */
    public static Path resolvePath(Path baseDir, String name, String key) {
        try {
            return baseDir.resolve(name);
        } catch (InvalidPathException e) {
            throw new ConfigException(key + ": not a file name: " + e.getReason());
        }
    }
}
