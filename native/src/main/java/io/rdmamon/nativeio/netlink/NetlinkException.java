package io.rdmamon.nativeio.netlink;

import io.rdmamon.nativeio.ErrnoException;

/**
 * A netlink exchange that failed: the kernel's NLMSG_ERROR (its errno), a failed socket call (its errno), no reply
 * in time ({@code EAGAIN}), or a reply that does not parse (errno 0, the message says what is wrong where).
 */
public final class NetlinkException extends ErrnoException {
    private final String kernelMessage;

    public NetlinkException(int errno, String message) {
        this(errno, message, null);
    }

    public NetlinkException(int errno, String message, String kernelMessage) {
        super(errno, message);
        this.kernelMessage = kernelMessage;
    }

    /** A reply or attribute that does not parse: errno 0. */
    public static NetlinkException malformed(String what) {
        return new NetlinkException(0, "malformed netlink data: " + what);
    }

    /** The kernel's extended-ack text ({@code NLMSGERR_ATTR_MSG}), or null when it sent none. */
    public String kernelMessage() {
        return kernelMessage;
    }
}
