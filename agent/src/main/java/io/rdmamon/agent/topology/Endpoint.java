package io.rdmamon.agent.topology;

import java.util.List;

/**
 * A GPU or an RDMA device with its place in the PCI tree.
 *
 * @param name       {@code GPU0} (numbered in PCI address order, as nvidia-smi does) or the RDMA device
 *                   ({@code mlx5_0})
 * @param label      the matrix heading: {@code GPU0} or {@code NIC0} (NICs numbered in device-name order)
 * @param kind       GPU or NIC
 * @param function   the function itself
 * @param bridges    the bridges above it, nearest first, its root port last (from the function's real path)
 * @param hostBridge the host bridge directory above the root port ({@code pci0000:3a}); null when none was found
 */
public record Endpoint(String name, String label, Kind kind, PciNode function, List<PciNode> bridges,
                       String hostBridge) {
    public enum Kind { GPU, NIC }

    public Endpoint {
        bridges = List.copyOf(bridges);
    }

    public Integer numaNode() {
        return function.numaNode();
    }

    public boolean nvidia() {
        return "0x10de".equalsIgnoreCase(function.vendor());
    }
}
