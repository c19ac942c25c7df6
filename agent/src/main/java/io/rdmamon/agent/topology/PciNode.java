package io.rdmamon.agent.topology;

import io.rdmamon.protocol.model.PciFunction;

/**
 * One PCI function of the topology: a GPU, an RDMA device or a bridge on the way to the root port.
 *
 * @param address        {@code 0000:3b:00.0}
 * @param vendor         {@code vendor} as printed ({@code 0x10de}); null when absent
 * @param device         {@code device} ({@code 0x2330}); null when absent
 * @param pciClass       {@code class} ({@code 0x030200}); null when absent
 * @param numaNode       {@code numa_node}; null when absent or −1 (none reported)
 * @param localCpulist   {@code local_cpulist} ({@code 0-55,112-167}); null when absent
 * @param link           current vs max link speed and width (read as {@code rdmamon pcie} reads them)
 * @param config         what {@code config} said, or why it is unknown
 * @param iommuGroup     the {@code iommu_group} link's target name; null without an IOMMU group
 * @param iommuGroupType {@code sys/kernel/iommu_groups/<n>/type}; null when absent
 */
public record PciNode(String address, String vendor, String device, String pciClass, Integer numaNode,
                      String localCpulist, PciFunction link, ConfigFacts config, String iommuGroup,
                      String iommuGroupType) {

    /** The link trained below its maximum (width or speed, both known). */
    public boolean linkDegraded() {
        return link != null && link.degraded();
    }

    /** The IOMMU translates this function's DMA ({@code DMA}, {@code DMA-FQ}): not passthrough ({@code identity}). */
    public boolean iommuTranslated() {
        return "DMA".equals(iommuGroupType) || "DMA-FQ".equals(iommuGroupType);
    }
}
