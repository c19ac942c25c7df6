package io.rdmamon.nativeio.verbs;

import io.rdmamon.nativeio.ErrnoException;

/** A failed libibverbs call, naming the call, the device and the errno. */
public final class VerbsException extends ErrnoException {
    public VerbsException(String message, int errno) {
        super(errno, message);
    }
}
