package io.rdmamon.nativeio.rdma;

import static io.rdmamon.nativeio.netlink.NetlinkAbi.NETLINK_RDMA;

import java.util.List;
import java.util.Map;

import io.rdmamon.nativeio.Errno;
import io.rdmamon.nativeio.netlink.JnrNetlink;
import io.rdmamon.nativeio.netlink.Netlink;
import io.rdmamon.nativeio.netlink.NetlinkException;
import io.rdmamon.nativeio.netlink.NetlinkMessage;
import io.rdmamon.nativeio.netlink.NetlinkMessageBuilder;

/**
 * {@link RdmaNetlink} over {@code NETLINK_RDMA}, one socket per request ({@link JnrNetlink}). The socket belongs to
 * the calling thread's network namespace, and the kernel shows only the devices of that namespace when its RDMA
 * netns mode is exclusive, and the QPs of processes in the caller's pid namespace (kernel QPs only to the init one).
 */
public final class NetlinkRdma implements RdmaNetlink {
    /** The prefix of the reason for a kernel without RDMA netlink; operators search for it. */
    public static final String NO_RDMA_NETLINK = "kernel without RDMA netlink (NETLINK_RDMA)";

    private final Netlink netlink;

    public NetlinkRdma() {
        this(new JnrNetlink());
    }

    public NetlinkRdma(Netlink netlink) {
        this.netlink = netlink;
    }

    @Override
    public List<RdmaDeviceIndex> devices() throws RdmaNetlinkException {
        return read(RdmaNetlinkAbi.CMD_GET, "dump", RdmaMessages.devicesRequest(), RdmaMessages::parseDevices);
    }

    @Override
    public Map<String, Long> portHwCounters(long deviceIndex, int port) throws RdmaNetlinkException {
        return read(RdmaNetlinkAbi.CMD_STAT_GET, "of device " + deviceIndex + " port " + port,
                RdmaMessages.portHwCountersRequest(deviceIndex, port), RdmaMessages::parsePortHwCounters);
    }

    @Override
    public List<ResourceSummary> resourceSummaries() throws RdmaNetlinkException {
        return read(RdmaNetlinkAbi.CMD_RES_GET, "dump", RdmaMessages.resourceSummariesRequest(),
                RdmaMessages::parseResourceSummaries);
    }

    @Override
    public List<QueuePairEntry> queuePairs(long deviceIndex) throws RdmaNetlinkException {
        return read(RdmaNetlinkAbi.CMD_RES_QP_GET, "dump of device " + deviceIndex,
                RdmaMessages.queuePairsRequest(deviceIndex), RdmaMessages::parseQueuePairs);
    }

    private interface Parser<T> {
        T parse(List<NetlinkMessage> reply) throws NetlinkException;
    }

    /**
     * Sends {@code request} of {@code command} ({@code what}: which one, for messages) and parses the reply, naming a
     * kernel without RDMA netlink and a malformed reply.
     */
    private <T> T read(int command, String what, NetlinkMessageBuilder request, Parser<T> parser)
            throws RdmaNetlinkException {
        String description = RdmaNetlinkAbi.commandName(command) + " " + what;
        try {
            return parser.parse(netlink.exchange(NETLINK_RDMA, request, description));
        } catch (NetlinkException e) {
            throw new RdmaNetlinkException(e.errno(), reason(description, e));
        }
    }

    static String reason(String description, NetlinkException e) {
        return switch (e.errno()) {
            case Errno.EPROTONOSUPPORT -> NO_RDMA_NETLINK + ": " + e.getMessage();
            case 0 -> "unreadable " + description + " reply: " + e.getMessage();
            default -> e.getMessage();
        };
    }
}
