package io.rdmamon.nativeio.netlink;

import java.util.List;

/**
 * Request/reply over netlink. Implementations: {@link JnrNetlink} (a real socket). The families built on it (DCB,
 * RDMA netlink, ethtool genetlink; rtnetlink link events later) take this interface, so their tests can answer with
 * built messages.
 */
public interface Netlink {

    /**
     * Sends {@code request} on a socket of netlink {@code protocol} ({@link NetlinkAbi#NETLINK_ROUTE}, ...) and
     * returns the data messages of the complete reply (see {@link NetlinkReply} for when it is complete).
     *
     * @param description names the request in error messages, e.g. {@code RTM_GETDCB DCB_CMD_IEEE_GET on ens1f0}
     * @throws NetlinkException the kernel's errno, a socket call's errno, {@code EAGAIN} when no reply came within
     *                          the receive timeout, or errno 0 for a reply that does not parse
     */
    List<NetlinkMessage> exchange(int protocol, NetlinkMessageBuilder request, String description)
            throws NetlinkException;
}
