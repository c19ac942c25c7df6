package io.rdmamon.agent.topology;

import java.util.List;

/**
 * Host-wide facts of GPUDirect RDMA.
 *
 * @param cmdline          {@code /proc/cmdline}; null when absent
 * @param cmdlineSettings  its IOMMU and PCI settings ({@code iommu=pt}, {@code intel_iommu=on}, {@code amd_iommu=…},
 *                         {@code pci=…}, {@code pcie_acs_override=…}), in order
 * @param peermem          what shows a peer-memory module: {@code sys/module/nvidia_peermem} and
 *                         {@code sys/kernel/mm/memory_peers/nv_mem*} entries found (empty: none)
 * @param nvidiaDriver     the first line of {@code proc/driver/nvidia/version}; null when absent
 */
public record HostFacts(String cmdline, List<String> cmdlineSettings, List<String> peermem, String nvidiaDriver) {
    public HostFacts {
        cmdlineSettings = List.copyOf(cmdlineSettings);
        peermem = List.copyOf(peermem);
    }

    /** The NVIDIA open kernel modules are loaded: they support DMA-BUF, GPUDirect RDMA without peermem. */
    public boolean openKernelModules() {
        return nvidiaDriver != null && nvidiaDriver.contains("Open Kernel Module");
    }
}
