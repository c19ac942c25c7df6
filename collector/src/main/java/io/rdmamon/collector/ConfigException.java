package io.rdmamon.collector;

/** Bad collector configuration; the message names the file, key, environment variable or flag at fault. */
public final class ConfigException extends RuntimeException {
    public ConfigException(String message) {
        super(message);
    }

    public ConfigException(String message, Throwable cause) {
        super(message, cause);
    }
}
