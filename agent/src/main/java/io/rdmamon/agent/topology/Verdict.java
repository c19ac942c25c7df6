package io.rdmamon.agent.topology;

/** GPUDirect RDMA readiness of a GPU↔NIC pair. */
public enum Verdict {
    /** NCCL will use GPUDirect RDMA and nothing on the path costs bandwidth. */
    READY("ready"),
    /**
     * NCCL will use GPUDirect RDMA but something costs bandwidth (a downtrained link, relaxed ordering off, a
     * translating IOMMU), or a fact of the path could not be read (absent is not fine).
     */
    DEGRADED("degraded"),
    /** NCCL will not use GPUDirect RDMA (path farther than PXB, no peer memory), or P2P is redirected by ACS. */
    NOT_READY("not_ready");

    private final String text;

    Verdict(String text) {
        this.text = text;
    }

    public String text() {
        return text;
    }

    @Override
    public String toString() {
        return text;
    }
}
