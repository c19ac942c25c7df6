package io.rdmamon.agent.topology;

import java.util.ArrayList;
import java.util.List;

/**
 * The path class between two functions of the tree, as NCCL computes it from sysfs and {@code nvidia-smi topo -m}
 * prints it (fabric-facts.md §3.2, §3.3). NCCL links each function to its parent bridge: a hop function→bridge is
 * PIX, bridge→bridge PXB, anything through the CPU PHB, CPU→CPU SYS; the path's class is the worst hop. So:
 * <ul>
 *   <li>same parent bridge (one bridge between): PIX;</li>
 *   <li>a common bridge higher up (several bridges between, no host bridge): PXB;</li>
 *   <li>same host bridge, different root ports (nothing in common below the host bridge): PHB;</li>
 *   <li>different host bridges on one NUMA node: NODE (PHB to NCCL);</li>
 *   <li>different NUMA nodes: SYS.</li>
 * </ul>
 * When a NUMA node is unknown (−1) two host bridges count as one node: NODE, not SYS.
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
                        return new PairPath(i + j + 1 <= 1 ? PathType.PIX : PathType.PXB, traversed);
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
