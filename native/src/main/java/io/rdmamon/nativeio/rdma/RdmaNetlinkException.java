package io.rdmamon.nativeio.rdma;

import io.rdmamon.nativeio.Errno;
import io.rdmamon.nativeio.ErrnoException;

/**
 * An RDMA netlink read that failed, with the errno (0 for a reply that does not parse). A kernel without RDMA
 * netlink at all ({@code ib_core} not loaded or not built: {@code socket(AF_NETLINK, SOCK_RAW, 20)} fails with
 * EPROTONOSUPPORT) is {@link #kernelWithoutRdmaNetlink()}: an absent capability, not a fault.
 */
public final class RdmaNetlinkException extends ErrnoException {
    public RdmaNetlinkException(int errno, String message) {
        super(errno, message);
    }

    /** Whether the kernel has no NETLINK_RDMA protocol at all. */
    public boolean kernelWithoutRdmaNetlink() {
        return errno() == Errno.EPROTONOSUPPORT;
    }
}
