package io.rdmamon.agent.sim;

/** The hardware a simulated node carries. */
public enum NodeKind {
    /** Mellanox/NVIDIA ConnectX (mlx5) ports in RoCE mode: link layer Ethernet, netdev with ethtool stats. */
    ROCE_MLX5,
    /** ConnectX (mlx5) ports in InfiniBand mode: no netdev, no ethtool, a LID. */
    INFINIBAND_MLX5,
    /** Alibaba Cloud elastic RDMA ({@code erdma_0}): no {@code counters/}, netdev found only by MAC. */
    ERDMA
}
