package io.rdmamon.agent.topology;

import java.util.List;

/**
 * The NIC(s) NCCL would pair a GPU with: the closest by path class; and whether that choice is good (at most PXB,
 * so GPUDirect RDMA at NCCL's default level, and every such pair ready).
 *
 * @param gpu     {@code GPU0}
 * @param nics    the closest RDMA devices (empty when the host has none)
 * @param path    their path class; null without NICs
 * @param good    the choice gives GPUDirect RDMA without a reason against it
 * @param summary one line: {@code GPU0 → mlx5_0, mlx5_1 (PIX): good}
 */
public record GpuChoice(String gpu, List<String> nics, PathType path, boolean good, String summary) {
    public GpuChoice {
        nics = List.copyOf(nics);
    }
}
