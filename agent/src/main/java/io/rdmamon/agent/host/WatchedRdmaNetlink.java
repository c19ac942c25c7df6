package io.rdmamon.agent.host;

import java.util.List;
import java.util.Map;

import io.rdmamon.agent.host.ReadWatchdog.StuckReadException;
import io.rdmamon.nativeio.Errno;
import io.rdmamon.nativeio.rdma.QueuePairEntry;
import io.rdmamon.nativeio.rdma.RdmaDeviceIndex;
import io.rdmamon.nativeio.rdma.RdmaNetlink;
import io.rdmamon.nativeio.rdma.RdmaNetlinkException;
import io.rdmamon.nativeio.rdma.ResourceSummary;

/**
 * RDMA netlink requests under the sample's read deadline ({@link ReadWatchdog}), each request one key: a request
 * stuck in the kernel is skipped by later samples until it returns. A stuck request, and a binding that fails on first
 * use, become an {@link RdmaNetlinkException} naming it, so that they cost the device's status, not the sample.
 */
final class WatchedRdmaNetlink implements RdmaNetlink {
    private final RdmaNetlink netlink;
    private final ReadWatchdog watchdog;

    WatchedRdmaNetlink(RdmaNetlink netlink, ReadWatchdog watchdog) {
        this.netlink = netlink;
        this.watchdog = watchdog;
    }

    @Override
    public List<RdmaDeviceIndex> devices() throws RdmaNetlinkException {
        return watch("RDMA netlink device dump", netlink::devices);
    }

    @Override
    public Map<String, Long> portHwCounters(long deviceIndex, int port) throws RdmaNetlinkException {
        return watch("RDMA netlink STAT_GET of device " + deviceIndex + " port " + port,
                () -> netlink.portHwCounters(deviceIndex, port));
    }

    @Override
    public List<ResourceSummary> resourceSummaries() throws RdmaNetlinkException {
        return watch("RDMA netlink resource summary dump", netlink::resourceSummaries);
    }

    @Override
    public List<QueuePairEntry> queuePairs(long deviceIndex) throws RdmaNetlinkException {
        return watch("RDMA netlink QP dump of device " + deviceIndex, () -> netlink.queuePairs(deviceIndex));
    }

    private <V> V watch(String request, ReadWatchdog.Blocking<V, RdmaNetlinkException> read)
            throws RdmaNetlinkException {
        try {
            return watchdog.watch(request, () -> {
                try {
                    return read.call();
                } catch (RuntimeException | LinkageError e) {
                    // the libc binding failing on first use: a reason, never a dead reader thread
                    throw new RdmaNetlinkException(0, request + ": RDMA netlink unavailable: " + e);
                }
            });
        } catch (StuckReadException e) {
            throw new RdmaNetlinkException(Errno.EAGAIN, request + ": " + e.getMessage());
        }
    }
}
