package io.rdmamon.protocol.json;

/**
 * A JSON value {@link StrictJson} cannot accept. The message starts with the value's path (or, for an unknown
 * key, quotes it) and says what was expected; each caller turns it into its own refusal (a config error, a
 * refused frame, a 400), adding where the document came from.
 */
public final class StrictJsonException extends RuntimeException {
    private final String path;

    StrictJsonException(String path, String message) {
        super(message);
        this.path = path;
    }

    /** The path of the value at fault, e.g. {@code layout.devices[2].ports[0].port}; empty for a whole document. */
    public String path() {
        return path;
    }
}
