package io.rdmamon.agent.topology;

import java.util.ArrayList;
import java.util.List;

/**
 * The path class between two functions of the tree, as NCCL computes it from sysfs
 * (docs/reference/pingmesh-workloads-topology.md §3.2, §3.3; NCCL's
 * {@code xml.cc} and {@code paths.cc}). NCCL walks up a function's sysfs path two components at a time ("go up one
 * level: rewind two '/'"), so its parent is the bridge above the function's own port — a switch's upstream port for
 * a function on a downstream port, the root complex (the CPU) for a function on a root port — and a downstream and
 * upstream port pair counts as one switch. A hop function→switch is PIX, switch→switch PXB, anything through the CPU
 * PHB, CPU→CPU SYS; the path's class is the worst hop. So:
 * <ul>
 *   <li>functions of one device, or behind one switch (the same NCCL parent): PIX;</li>
 *   <li>a common switch higher up (several switches between, no host bridge): PXB;</li>
 *   <li>same host bridge, no common switch below it: PHB;</li>
 *   <li>different host bridges on one NUMA node: NODE (PHB to NCCL);</li>
 *   <li>different NUMA nodes: SYS.</li>
 * </ul>
 * When a NUMA node is unknown (−1) two host bridges count as one node: NODE, not SYS. The bridges a path traverses
 * (for the ACS and link checks) are every real bridge up to the lowest common one.
 */
public final class PathClassifier {
    private PathClassifier() {
    }

    /** The path from {@code a} to {@code b}: its class and the bridges it traverses, from {@code a}'s side. */
    public static PairPath classify(Endpoint a, Endpoint b) {
        List<PciNode> up = a.bridges();
        List<PciNode> down = b.bridges();
        boolean sameHostBridge = a.hostBridge() != null && a.hostBridge().equals(b.hostBridge());
        if (sameHostBridge) {
            for (int i = 0; i < up.size(); i++) {
                for (int j = 0; j < down.size(); j++) {
                    if (up.get(i).address().equals(down.get(j).address())) {
                        List<PciNode> traversed = new ArrayList<>(up.subList(0, i + 1));
                        traversed.addAll(reversed(down.subList(0, j)));
                        return new PairPath(ncclClass(a, b), traversed);
                    }
                }
            }
        }
        List<PciNode> traversed = new ArrayList<>(up);
        traversed.addAll(reversed(down));
        if (sameHostBridge) {
            return new PairPath(PathType.PHB, traversed);
        }
        Integer na = a.numaNode();
        Integer nb = b.numaNode();
        return new PairPath(na != null && nb != null && !na.equals(nb) ? PathType.SYS : PathType.NODE, traversed);
    }

    /** Two functions of one host bridge with a common bridge: PIX, PXB or PHB by NCCL's parents. */
    private static PathType ncclClass(Endpoint a, Endpoint b) {
        if (device(a.function().address()).equals(device(b.function().address()))) {
            return PathType.PIX; // functions of one card: nvidia-smi prints PIX, NCCL takes a NIC's ports as one NIC
        }
        List<String> pa = ncclParents(a.bridges());
        List<String> pb = ncclParents(b.bridges());
        if (!pa.isEmpty() && !pb.isEmpty() && pa.get(0).equals(pb.get(0))) {
            return PathType.PIX;
        }
        return pa.stream().anyMatch(pb::contains) ? PathType.PXB : PathType.PHB;
    }

    /** NCCL's PCI parents of a function: every second bridge above it, from the second (its port's parent) up. */
    private static List<String> ncclParents(List<PciNode> bridges) {
        List<String> parents = new ArrayList<>();
        for (int i = 1; i < bridges.size(); i += 2) {
            parents.add(bridges.get(i).address());
        }
        return parents;
    }

    /** {@code DDDD:BB:DD} of {@code DDDD:BB:DD.F}. */
    private static String device(String address) {
        int dot = address.lastIndexOf('.');
        return dot < 0 ? address : address.substring(0, dot);
    }

    private static List<PciNode> reversed(List<PciNode> nodes) {
        List<PciNode> r = new ArrayList<>(nodes);
        java.util.Collections.reverse(r);
        return r;
    }

    /** A path's class and the bridges on it. */
    public record PairPath(PathType type, List<PciNode> bridges) {
        public PairPath {
            bridges = List.copyOf(bridges);
        }
    }
}
