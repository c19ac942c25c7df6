package io.rdmamon.nativeio.rdma;

import java.util.List;
import java.util.Map;

/**
 * What the kernel's RDMA netlink (NLDEV) tells about devices, the reads {@code rdma dev}, {@code rdma statistic show
 * link} and {@code rdma resource show [qp]} make. Every request here needs no privilege (the kernel's
 * {@code nldev_cb_table} asks CAP_NET_ADMIN only of the SET, DEL and RAW commands). Implementations:
 * {@link NetlinkRdma}. Blocking.
 *
 * <p>Every method throws {@link RdmaNetlinkException}: {@link RdmaNetlinkException#kernelWithoutRdmaNetlink()} on a
 * kernel without RDMA netlink, else the errno with the request named (EINVAL for a device without hw counters or a
 * kernel before the command, ENODEV for an index that is gone, EAGAIN for no reply in time, 0 for a malformed reply).
 */
public interface RdmaNetlink {

    /** {@code RDMA_NLDEV_CMD_GET} dump: every device's index and name, in kernel order. */
    List<RdmaDeviceIndex> devices() throws RdmaNetlinkException;

    /**
     * {@code RDMA_NLDEV_CMD_STAT_GET} for one port, without {@code STAT_RES}: every hw counter of the port in one
     * message, in kernel order (the enabled optional counters included, which sysfs does not list); values are u64 in
     * a long with unsigned semantics.
     */
    Map<String, Long> portHwCounters(long deviceIndex, int port) throws RdmaNetlinkException;

    /** {@code RDMA_NLDEV_CMD_RES_GET} dump: the resource counts of every device. */
    List<ResourceSummary> resourceSummaries() throws RdmaNetlinkException;

    /** {@code RDMA_NLDEV_CMD_RES_QP_GET} dump for one device (the kernel requires the index): its QPs. */
    List<QueuePairEntry> queuePairs(long deviceIndex) throws RdmaNetlinkException;
}
