package io.rdmamon.protocol.model;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One full snapshot of a host's RDMA state, as the agent reads it and sends it: every
 * InfiniBand-class device with its ports, and the health of every source that was read.
 *
 * @param node            the node name the agent reports as (the {@code node} label)
 * @param timestampMillis wall-clock time of the read, epoch milliseconds
 * @param devices         devices sorted by name
 * @param sources         one status per source and subject (e.g. sysfs of mlx5_0, ethtool of eth2)
 * @param ncclConf        {@code /etc/nccl.conf} as {@code KEY=VALUE} pairs in file order (comments and blank lines
 *                        dropped); null when the file does not exist or was not read
 * @param topology        the GPU↔NIC topology and GPUDirect RDMA verdicts (read on the slow cadence); null when the
 *                        host has no GPU or it was not read
 * @param kernel          the kernel log's NIC events; null when the kernel log was not read. Not part of the sample's
 *                        frames: it travels in its own optional frame
 * @param health          the NICs' devlink health reporters in the kernel's order; null when devlink was not read.
 *                        Not part of the sample's frames: it travels in its own optional frame
 */
public record HostSample(String node, long timestampMillis, List<IbDevice> devices, List<SourceStatus> sources,
                         Map<String, String> ncclConf, GpuTopology topology, KernelEvents kernel,
                         List<NicHealthReporter> health) {
    public HostSample {
        Objects.requireNonNull(node, "node");
        devices = List.copyOf(devices);
        sources = List.copyOf(sources);
        ncclConf = ncclConf == null ? null : Maps.copyOrdered(ncclConf);
        health = health == null ? null : List.copyOf(health);
    }

    /** A sample without devlink health. */
    public HostSample(String node, long timestampMillis, List<IbDevice> devices, List<SourceStatus> sources,
                      Map<String, String> ncclConf, GpuTopology topology, KernelEvents kernel) {
        this(node, timestampMillis, devices, sources, ncclConf, topology, kernel, null);
    }

    /** A sample without kernel events. */
    public HostSample(String node, long timestampMillis, List<IbDevice> devices, List<SourceStatus> sources,
                      Map<String, String> ncclConf, GpuTopology topology) {
        this(node, timestampMillis, devices, sources, ncclConf, topology, null);
    }

    /** A sample without a GPU topology. */
    public HostSample(String node, long timestampMillis, List<IbDevice> devices, List<SourceStatus> sources,
                      Map<String, String> ncclConf) {
        this(node, timestampMillis, devices, sources, ncclConf, null, null);
    }

    /** A sample without host-wide settings. */
    public HostSample(String node, long timestampMillis, List<IbDevice> devices, List<SourceStatus> sources) {
        this(node, timestampMillis, devices, sources, null, null, null);
    }

    /** This sample with {@code kernel} as its kernel events. */
    public HostSample withKernel(KernelEvents kernel) {
        return new HostSample(node, timestampMillis, devices, sources, ncclConf, topology, kernel, health);
    }

    /** This sample with {@code reporters} as its devlink health reporters. */
    public HostSample withHealth(List<NicHealthReporter> reporters) {
        return new HostSample(node, timestampMillis, devices, sources, ncclConf, topology, kernel, reporters);
    }
}
