package io.rdmamon.agent.rdma;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.rdmamon.agent.sysfs.PortHwCounterSource;
import io.rdmamon.nativeio.Errno;
import io.rdmamon.nativeio.rdma.QueuePairEntry;
import io.rdmamon.nativeio.rdma.RdmaDeviceIndex;
import io.rdmamon.nativeio.rdma.RdmaNetlink;
import io.rdmamon.nativeio.rdma.RdmaNetlinkException;
import io.rdmamon.nativeio.rdma.ResourceSummary;
import io.rdmamon.protocol.model.QueuePair;
import io.rdmamon.protocol.model.RdmaResources;
import io.rdmamon.protocol.model.SourceStatus;

/**
 * What RDMA netlink gives a live host's sample (root {@code /}): each device's resource summary and QP list, and each
 * port's hw counters in one {@code STAT_GET} instead of a file per counter. Never throws: a failure is a failed
 * {@code rdma-netlink} status of the device naming it, and the hw counters then come from the files. A kernel without
 * RDMA netlink is an absent capability, like verbs on such a host: no status, no resources, files for the counters.
 * Blocking: call it on the sample's reader thread.
 */
public final class RdmaNetlinkReader {
    public static final String SOURCE = "rdma-netlink";

    private final RdmaNetlink rdma;

    public RdmaNetlinkReader(RdmaNetlink rdma) {
        this.rdma = rdma;
    }

    /** This sample's device indexes and resource summaries (two dumps); never throws. */
    public Sample sample() {
        try {
            Map<String, Long> indexes = new HashMap<>();
            for (RdmaDeviceIndex device : rdma.devices()) {
                indexes.put(device.name(), device.index());
            }
            Map<String, Map<String, Long>> summaries = new HashMap<>();
            for (ResourceSummary summary : rdma.resourceSummaries()) {
                summaries.put(summary.device(), summary.counts());
            }
            return new Sample(indexes, summaries, null, false);
        } catch (RdmaNetlinkException e) {
            return new Sample(Map.of(), Map.of(), e.getMessage(), e.kernelWithoutRdmaNetlink());
        }
    }

    /** One sample's reading of the host. */
    public final class Sample {
        private final Map<String, Long> indexes;
        private final Map<String, Map<String, Long>> summaries;
        /** Why the dumps failed; null when they did not. */
        private final String failure;
        private final boolean absent;

        private Sample(Map<String, Long> indexes, Map<String, Map<String, Long>> summaries, String failure,
                       boolean absent) {
            this.indexes = indexes;
            this.summaries = summaries;
            this.failure = failure;
            this.absent = absent;
        }

        /** Whether the kernel has no RDMA netlink: nothing of it goes into the sample. */
        public boolean absent() {
            return absent;
        }

        /** The device {@code name} in this sample. */
        public Device device(String name) {
            return new Device(name, indexes.get(name), summaries.get(name), failure);
        }
    }

    /**
     * One device of a sample: the source of its ports' hw counters, its resources, and its status, which collects
     * every failure of them.
     */
    public final class Device implements PortHwCounterSource {
        private final String name;
        private final Long index;
        private final Map<String, Long> summary;
        private final List<String> problems = new ArrayList<>();

        private Device(String name, Long index, Map<String, Long> summary, String sampleFailure) {
            this.name = name;
            this.index = index;
            this.summary = summary;
            if (sampleFailure != null) {
                problems.add(sampleFailure);
            } else if (index == null) {
                problems.add(name + ": not in the RDMA_NLDEV_CMD_GET dump (another network namespace, or removed)");
            }
        }

        /**
         * {@code STAT_GET} of the port; null (and the files are read) when the sample's dumps failed or the kernel
         * answers EINVAL/EOPNOTSUPP (a device without hw counters, a kernel before 5.x's counters over netlink: an
         * absent capability, not a problem).
         */
        @Override
        public Map<String, Long> read(int port) {
            if (index == null) {
                return null;
            }
            try {
                return rdma.portHwCounters(index, port);
            } catch (RdmaNetlinkException e) {
                if (e.errno() != Errno.EINVAL && !Errno.notSupported(e.errno())) {
                    problems.add(name + "/" + port + ": " + e.getMessage());
                }
                return null;
            }
        }

        /** The summary and QP list (one QP dump); null when they cannot be read (a problem says why). */
        public RdmaResources resources() {
            if (index == null || summary == null) {
                if (problems.isEmpty()) {
                    problems.add(name + ": not in the RDMA_NLDEV_CMD_RES_GET dump");
                }
                return null;
            }
            try {
                return RdmaResources.bounded(summary, rdma.queuePairs(index).stream()
                        .map(RdmaNetlinkReader::toModel).toList());
            } catch (RdmaNetlinkException e) {
                problems.add(name + ": " + e.getMessage());
                return null;
            }
        }

        /** Ok, or failed with every problem of this device's reads. */
        public SourceStatus status() {
            return problems.isEmpty() ? SourceStatus.ok(SOURCE, name)
                    : SourceStatus.failed(SOURCE, name, String.join("; ", problems));
        }
    }

    static QueuePair toModel(QueuePairEntry qp) {
        return new QueuePair(qp.lqpn(), qp.rqpn(), qp.port(), qp.typeName(), qp.stateName(), qp.pid(), qp.kernName());
    }
}
