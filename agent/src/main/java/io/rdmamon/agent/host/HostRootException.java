package io.rdmamon.agent.host;

import java.io.IOException;

/** The host root given to a reader is missing or not a directory. */
public final class HostRootException extends IOException {
    public HostRootException(String message) {
        super(message);
    }
}
