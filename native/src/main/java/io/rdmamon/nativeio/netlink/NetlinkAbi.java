package io.rdmamon.nativeio.netlink;

/**
 * The netlink ABI: constants from {@code <linux/netlink.h>}, {@code <linux/socket.h>} and
 * {@code <asm-generic/socket.h>} (the same numbers on x86_64 and aarch64), and the fixed header sizes.
 * Multi-byte fields of netlink headers and attributes are in host byte order.
 */
public final class NetlinkAbi {
    public static final int AF_NETLINK = 16;
    public static final int SOCK_RAW = 3;
    /** So that child processes (perftest, ...) never inherit the socket. */
    public static final int SOCK_CLOEXEC = 0x80000;

    /** rtnetlink: links, addresses, routes, DCB ({@code RTM_GETDCB}). */
    public static final int NETLINK_ROUTE = 0;
    /** RDMA netlink ({@code RDMA_NL_NLDEV}). */
    public static final int NETLINK_RDMA = 20;
    /** generic netlink (ethtool netlink: module EEPROM, FEC). */
    public static final int NETLINK_GENERIC = 16;

    public static final int SOL_SOCKET = 1;
    /** {@code SO_RCVTIMEO_OLD}: a {@code struct timeval} of two longs on LP64. */
    public static final int SO_RCVTIMEO = 20;
    public static final int SOL_NETLINK = 270;
    /** Error messages echo only the request's header, not its payload. */
    public static final int NETLINK_CAP_ACK = 10;
    /** Error messages carry the kernel's extended-ack text ({@link #NLMSGERR_ATTR_MSG}). */
    public static final int NETLINK_EXT_ACK = 11;
    /** recv flag: return the real datagram length even when it did not fit the buffer. */
    public static final int MSG_TRUNC = 0x20;

    /** {@code struct nlmsghdr}: len u32@0, type u16@4, flags u16@6, seq u32@8, pid u32@12. */
    public static final int NLMSG_HDRLEN = 16;
    /** {@code struct nlattr}: nla_len u16@0, nla_type u16@2. */
    public static final int NLA_HDRLEN = 4;
    public static final int NLMSG_ALIGNTO = 4;
    /** {@code struct sockaddr_nl}: nl_family u16@0, pad u16@2, nl_pid u32@4, nl_groups u32@8. */
    public static final int SOCKADDR_NL_SIZE = 12;
    /** {@code struct timeval} on LP64: tv_sec long@0, tv_usec long@8. */
    public static final int TIMEVAL_SIZE = 16;

    public static final int NLMSG_NOOP = 1;
    public static final int NLMSG_ERROR = 2;
    public static final int NLMSG_DONE = 3;
    public static final int NLMSG_OVERRUN = 4;

    public static final int NLM_F_REQUEST = 0x1;
    public static final int NLM_F_MULTI = 0x2;
    public static final int NLM_F_ACK = 0x4;
    public static final int NLM_F_ECHO = 0x8;
    /** {@code NLM_F_ROOT | NLM_F_MATCH}. */
    public static final int NLM_F_DUMP = 0x300;
    /** On an NLMSG_ERROR: the echoed request is only its header ({@link #NETLINK_CAP_ACK}). */
    public static final int NLM_F_CAPPED = 0x100;
    /** On an NLMSG_ERROR: extended-ack attributes follow the echoed request. */
    public static final int NLM_F_ACK_TLVS = 0x200;

    /** Extended-ack attribute: the kernel's NUL-terminated error text. */
    public static final int NLMSGERR_ATTR_MSG = 1;

    public static final int NLA_F_NESTED = 0x8000;
    public static final int NLA_F_NET_BYTEORDER = 0x4000;
    public static final int NLA_TYPE_MASK = ~(NLA_F_NESTED | NLA_F_NET_BYTEORDER) & 0xffff;

    private NetlinkAbi() {
    }

    /** {@code NLMSG_ALIGN} / {@code NLA_ALIGN}: rounds up to a multiple of 4. */
    public static int align(int length) {
        return (length + NLMSG_ALIGNTO - 1) & ~(NLMSG_ALIGNTO - 1);
    }
}
