package io.rdmamon.agent.rdma;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.rdmamon.agent.sysfs.PortHwCounterSource;
import io.rdmamon.agent.workload.WorkloadAttributor;
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
 * RDMA netlink is an absent capability: no status, no resources, files for the counters. A kernel that has it but
 * lacks a command (EINVAL from the netlink core, EOPNOTSUPP) gives an unsupported status naming the command.
 * Blocking: call it on the sample's reader thread.
 */
public final class RdmaNetlinkReader {
    public static final String SOURCE = "rdma-netlink";

    private final RdmaNetlink rdma;
    private final WorkloadAttributor workloads;

    /** A reader attributing each device's QPs with {@code workloads}. */
    public RdmaNetlinkReader(RdmaNetlink rdma, WorkloadAttributor workloads) {
        this.rdma = rdma;
        this.workloads = workloads;
    }

    /** This reader attributing the QPs with {@code attributor} instead. */
    public RdmaNetlinkReader withWorkloads(WorkloadAttributor attributor) {
        return new RdmaNetlinkReader(rdma, attributor);
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
            return new Sample(indexes, summaries, null, null, false);
        } catch (RdmaNetlinkException e) {
            if (commandAbsent(e)) {
                return new Sample(Map.of(), Map.of(), null, e.getMessage() + ": this kernel lacks the command", false);
            }
            return new Sample(Map.of(), Map.of(), e.getMessage(), null, e.kernelWithoutRdmaNetlink());
        }
    }

    /**
     * Whether a command's refusal means the kernel or device lacks it: the RDMA netlink core answers EINVAL for a
     * command it does not know (a kernel before it, e.g. before 4.16's nldev), drivers EOPNOTSUPP. An absent
     * capability, not a failure.
     */
    private static boolean commandAbsent(RdmaNetlinkException e) {
        return e.errno() == Errno.EINVAL || Errno.notSupported(e.errno());
    }

    /** One sample's reading of the host. */
    public final class Sample {
        private final Map<String, Long> indexes;
        private final Map<String, Map<String, Long>> summaries;
        /** Why the dumps failed; null when they did not. */
        private final String failure;
        /** Why the kernel cannot answer the dumps (it lacks a command); null when it can. */
        private final String unsupported;
        private final boolean absent;

        private Sample(Map<String, Long> indexes, Map<String, Map<String, Long>> summaries, String failure,
                       String unsupported, boolean absent) {
            this.indexes = indexes;
            this.summaries = summaries;
            this.failure = failure;
            this.unsupported = unsupported;
            this.absent = absent;
        }

        /** Whether the kernel has no RDMA netlink: nothing of it goes into the sample. */
        public boolean absent() {
            return absent;
        }

        /** The device {@code name} in this sample. */
        public Device device(String name) {
            return new Device(name, indexes.get(name), summaries.get(name), failure, unsupported);
        }
    }

    /**
     * One device of a sample: the source of its ports' hw counters, its resources, and its status, which collects
     * every failure of them, and else what the kernel lacks.
     */
    public final class Device implements PortHwCounterSource {
        private final String name;
        private final Long index;
        private final Map<String, Long> summary;
        private final List<String> problems = new ArrayList<>();
        private final List<String> unsupported = new ArrayList<>();

        private Device(String name, Long index, Map<String, Long> summary, String sampleFailure,
                       String sampleUnsupported) {
            this.name = name;
            this.index = index;
            this.summary = summary;
            if (sampleFailure != null) {
                problems.add(sampleFailure);
            } else if (sampleUnsupported != null) {
                unsupported.add(sampleUnsupported);
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
                if (!commandAbsent(e)) {
                    problems.add(name + "/" + port + ": " + e.getMessage());
                }
                return null;
            }
        }

        /**
         * The summary, QP list and workloads per port (one QP dump; every QP attributed, those beyond the list's
         * bound too); null when they cannot be read (a problem says why).
         */
        public RdmaResources resources() {
            if (index == null || summary == null) {
                if (problems.isEmpty() && unsupported.isEmpty()) {
                    problems.add(name + ": not in the RDMA_NLDEV_CMD_RES_GET dump");
                }
                return null;
            }
            try {
                List<QueuePair> qps = rdma.queuePairs(index).stream().map(RdmaNetlinkReader::toModel).toList();
                return RdmaResources.bounded(summary, qps).withWorkloads(workloads.attribute(name, qps));
            } catch (RdmaNetlinkException e) {
                (commandAbsent(e) ? unsupported : problems).add(name + ": " + e.getMessage());
                return null;
            }
        }

        /** Failed with every problem of this device's reads; else unsupported with what the kernel lacks; else ok. */
        public SourceStatus status() {
            if (!problems.isEmpty()) {
                return SourceStatus.failed(SOURCE, name, String.join("; ", problems));
            }
            return unsupported.isEmpty() ? SourceStatus.ok(SOURCE, name)
                    : SourceStatus.unsupported(SOURCE, name, String.join("; ", unsupported));
        }
    }

    static QueuePair toModel(QueuePairEntry qp) {
        return new QueuePair(qp.lqpn(), qp.rqpn(), qp.port(), qp.typeName(), qp.stateName(), qp.pid(), qp.kernName());
    }
}
