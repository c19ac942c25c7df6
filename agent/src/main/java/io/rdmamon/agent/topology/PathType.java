package io.rdmamon.agent.topology;

/**
 * The path class between a GPU and a NIC as {@code nvidia-smi topo -m} prints it
 * (docs/reference/pingmesh-workloads-topology.md §3.3), ordered
 * from closest to farthest, with the NCCL path type it is to NCCL (§3.2): NCCL has no NODE, it hangs every host
 * bridge of a NUMA node off that node's CPU, so NODE is PHB to NCCL.
 */
public enum PathType {
    /** At most a single PCIe bridge. */
    PIX("PIX"),
    /** Multiple PCIe bridges, without the host bridge. */
    PXB("PXB"),
    /** Through a PCIe host bridge (the CPU). */
    PHB("PHB"),
    /** Between PCIe host bridges within a NUMA node. */
    NODE("PHB"),
    /** Across the SMP interconnect between NUMA nodes (QPI/UPI). */
    SYS("SYS");

    private final String nccl;

    PathType(String nccl) {
        this.nccl = nccl;
    }

    /** NCCL's name for this path (PIX, PXB, PHB, SYS). */
    public String nccl() {
        return nccl;
    }

    /**
     * NCCL uses GPUDirect RDMA at its default {@code NCCL_NET_GDR_LEVEL} (PXB, on systems without C2C): only when
     * the path is at most PXB.
     */
    public boolean ncclUsesGdrByDefault() {
        return this == PIX || this == PXB;
    }
}
