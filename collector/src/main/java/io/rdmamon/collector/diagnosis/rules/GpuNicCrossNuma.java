package io.rdmamon.collector.diagnosis.rules;

import io.rdmamon.collector.diagnosis.DiagnosisConfig;
import io.rdmamon.collector.diagnosis.Finding;
import io.rdmamon.collector.diagnosis.PortInput;
import io.rdmamon.collector.diagnosis.PortRule;
import io.rdmamon.collector.model.Rule;
import io.rdmamon.protocol.model.GpuTopology;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * gpu_nic_cross_numa: this port's device is the closest NIC of a GPU, and it is across the CPU interconnect
 * (path SYS): the GPU has no NIC on its socket, so NCCL runs without GPUDirect RDMA and crosses UPI/QPI.
 */
public final class GpuNicCrossNuma implements PortRule {
    @Override
    public Rule id() {
        return Rule.GPU_NIC_CROSS_NUMA;
    }

    @Override
    public Optional<Finding> evaluate(PortInput in, DiagnosisConfig config) {
        List<GpuTopology.Pair> far = TopologyPairs.chosen(in).stream().filter(p -> "SYS".equals(p.path())).toList();
        if (far.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new Finding(Rule.GPU_NIC_CROSS_NUMA, TopologyPairs.gpus(far) + ": the closest NIC is "
                + in.device().name() + ", on the other NUMA node (path SYS); NCCL will not use GPUDirect RDMA "
                + "(NCCL_NET_GDR_LEVEL default PXB)", Map.of("gpus", (double) far.size())));
    }
}
