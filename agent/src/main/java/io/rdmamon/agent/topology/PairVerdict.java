package io.rdmamon.agent.topology;

import java.util.List;

/**
 * The GPUDirect RDMA verdict of one GPU↔NIC pair.
 *
 * @param gpu      {@code GPU0}
 * @param nic      the RDMA device ({@code mlx5_0})
 * @param path     the path class
 * @param bridges  the addresses of the bridges on the path, from the GPU's side
 * @param verdict  ready / degraded / not_ready
 * @param reasons  every reason it is not ready, then every reason it is degraded, then every fact that could not
 *                 be read ({@code unknown: …}); empty when ready
 */
public record PairVerdict(String gpu, String nic, PathType path, List<String> bridges, Verdict verdict,
                          List<String> reasons) {
    public PairVerdict {
        bridges = List.copyOf(bridges);
        reasons = List.copyOf(reasons);
    }

    public boolean ready() {
        return verdict == Verdict.READY;
    }
}
