package io.rdmamon.nativeio.rdma;

/**
 * The RDMA netlink ABI ({@code <rdma/rdma_netlink.h>}, docs/reference/pingmesh-workloads-topology.md §2.3): the NLDEV
 * client's commands and the
 * attributes rdmamon reads. A message has no family header: the attributes follow the {@code nlmsghdr}. Its type is
 * {@code (RDMA_NL_NLDEV << 10) | command}; the kernel answers with the same type.
 */
public final class RdmaNetlinkAbi {
    /** {@code RDMA_NL_NLDEV}: the client index of the device/resource/statistics commands. */
    public static final int RDMA_NL_NLDEV = 5;

    public static final int CMD_GET = 1;
    public static final int CMD_RES_GET = 9;
    public static final int CMD_RES_QP_GET = 10;
    public static final int CMD_STAT_GET = 17;

    public static final int ATTR_DEV_INDEX = 1;
    public static final int ATTR_DEV_NAME = 2;
    public static final int ATTR_PORT_INDEX = 3;
    public static final int ATTR_RES_SUMMARY = 15;
    public static final int ATTR_RES_SUMMARY_ENTRY = 16;
    public static final int ATTR_RES_SUMMARY_ENTRY_NAME = 17;
    public static final int ATTR_RES_SUMMARY_ENTRY_CURR = 18;
    public static final int ATTR_RES_QP = 19;
    public static final int ATTR_RES_QP_ENTRY = 20;
    public static final int ATTR_RES_LQPN = 21;
    public static final int ATTR_RES_RQPN = 22;
    public static final int ATTR_RES_TYPE = 26;
    public static final int ATTR_RES_STATE = 27;
    public static final int ATTR_RES_PID = 28;
    public static final int ATTR_RES_KERN_NAME = 29;
    public static final int ATTR_STAT_HWCOUNTERS = 80;
    public static final int ATTR_STAT_HWCOUNTER_ENTRY = 81;
    public static final int ATTR_STAT_HWCOUNTER_ENTRY_NAME = 82;
    public static final int ATTR_STAT_HWCOUNTER_ENTRY_VALUE = 83;

    private RdmaNetlinkAbi() {
    }

    /** {@code RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, command)}: e.g. STAT_GET is 5137, RES_QP_GET 5130. */
    public static int messageType(int command) {
        return (RDMA_NL_NLDEV << 10) | command;
    }

    /** The command's name in error messages, as the uapi header spells it. */
    static String commandName(int command) {
        return switch (command) {
            case CMD_GET -> "RDMA_NLDEV_CMD_GET";
            case CMD_RES_GET -> "RDMA_NLDEV_CMD_RES_GET";
            case CMD_RES_QP_GET -> "RDMA_NLDEV_CMD_RES_QP_GET";
            case CMD_STAT_GET -> "RDMA_NLDEV_CMD_STAT_GET";
            default -> "RDMA_NLDEV command " + command;
        };
    }
}
