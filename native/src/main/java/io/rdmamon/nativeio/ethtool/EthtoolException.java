package io.rdmamon.nativeio.ethtool;

import java.io.IOException;

/** A refused or failed ethtool call, naming the interface and the errno. */
public final class EthtoolException extends IOException {
    private final String interfaceName;
    private final int errno;

    public EthtoolException(String interfaceName, int errno, String message) {
        super(message);
        this.interfaceName = interfaceName;
        this.errno = errno;
    }

    public String interfaceName() {
        return interfaceName;
    }

    /** The errno of the failed call, or 0 when the failure was not a system call error. */
    public int errno() {
        return errno;
    }
}
