package io.rdmamon.nativeio.dcb;

import io.rdmamon.nativeio.ErrnoException;

/** A DCB read that failed, naming the interface, with the kernel's errno (0 for a reply that does not parse). */
public final class DcbException extends ErrnoException {
    private final String interfaceName;

    public DcbException(String interfaceName, int errno, String message) {
        super(errno, message);
        this.interfaceName = interfaceName;
    }

    public String interfaceName() {
        return interfaceName;
    }
}
