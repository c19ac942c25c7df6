package io.rdmamon.nativeio.ethtool;

import io.rdmamon.nativeio.ErrnoException;

/** A refused or failed ethtool call, naming the interface and the errno. */
public final class EthtoolException extends ErrnoException {
    private final String interfaceName;

    public EthtoolException(String interfaceName, int errno, String message) {
        super(errno, message);
        this.interfaceName = interfaceName;
    }

    public String interfaceName() {
        return interfaceName;
    }
}
