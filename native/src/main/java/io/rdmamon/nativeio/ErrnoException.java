package io.rdmamon.nativeio;

import java.io.IOException;

/**
 * A native call that failed, with the errno it failed with: the one field every failure of this module carries, so
 * that a caller tells an absent capability (EOPNOTSUPP, EPROTONOSUPPORT) from a fault without reading the message.
 */
public abstract class ErrnoException extends IOException {
    private final int errno;

    protected ErrnoException(int errno, String message) {
        super(message);
        this.errno = errno;
    }

    /** The positive errno, or 0 when the failure was not a kernel or system call error (a reply that does not parse). */
    public final int errno() {
        return errno;
    }
}
