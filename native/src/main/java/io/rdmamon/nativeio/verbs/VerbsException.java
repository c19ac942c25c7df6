package io.rdmamon.nativeio.verbs;

import java.io.IOException;

/** A failed libibverbs call, naming the call, the device and the errno. */
public final class VerbsException extends IOException {
    private final int errno;

    public VerbsException(String message, int errno) {
        super(message);
        this.errno = errno;
    }

    public int errno() {
        return errno;
    }
}
