package io.rdmamon.nativeio.dcb;

import java.io.IOException;

/** A DCB read that failed, naming the interface, with the kernel's errno (0 for a reply that does not parse). */
public final class DcbException extends IOException {
    private final String interfaceName;
    private final int errno;

    public DcbException(String interfaceName, int errno, String message) {
        super(message);
        this.interfaceName = interfaceName;
        this.errno = errno;
    }

    public String interfaceName() {
        return interfaceName;
    }

    public int errno() {
        return errno;
    }
}
