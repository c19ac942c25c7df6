package io.rdmamon.collector.diagnosis.rules;

import io.rdmamon.collector.diagnosis.PortInput;
import io.rdmamon.protocol.model.GpuTopology;

import java.util.List;

/** The GPU↔NIC pairs of the node's topology that involve the port's device (none without a topology). */
final class TopologyPairs {
    private TopologyPairs() {
    }

    static List<GpuTopology.Pair> of(PortInput in) {
        GpuTopology topology = in.topology();
        if (topology == null) {
            return List.of();
        }
        return topology.pairs().stream().filter(p -> p.nic().equals(in.device().name())).toList();
    }

    /** The pairs NCCL would choose (each GPU's closest NICs) that use the port's device. */
    static List<GpuTopology.Pair> chosen(PortInput in) {
        return of(in).stream().filter(GpuTopology.Pair::chosen).toList();
    }

    /** The GPUs of {@code pairs}, comma-separated. */
    static String gpus(List<GpuTopology.Pair> pairs) {
        return String.join(", ", pairs.stream().map(GpuTopology.Pair::gpu).toList());
    }
}
