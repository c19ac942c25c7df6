package io.rdmamon.collector.diagnosis.rules;

import io.rdmamon.collector.diagnosis.DiagnosisConfig;
import io.rdmamon.collector.diagnosis.Finding;
import io.rdmamon.collector.diagnosis.PortInput;
import io.rdmamon.collector.diagnosis.PortRule;
import io.rdmamon.collector.model.Rule;
import io.rdmamon.protocol.model.GpuTopology;

import java.util.Map;
import java.util.Optional;

/**
 * pcie_relaxed_ordering_off: the Device Control of this port's device (a NIC of a GPU node's topology) has Enable
 * Relaxed Ordering off. Unknown (config space not readable) is not a finding: the topology's verdict says unknown.
 */
public final class PcieRelaxedOrderingOff implements PortRule {
    @Override
    public Rule id() {
        return Rule.PCIE_RELAXED_ORDERING_OFF;
    }

    @Override
    public Optional<Finding> evaluate(PortInput in, DiagnosisConfig config) {
        GpuTopology topology = in.topology();
        if (topology == null) {
            return Optional.empty();
        }
        return topology.nics().stream()
                .filter(n -> n.name().equals(in.device().name()) && Boolean.FALSE.equals(n.relaxedOrdering()))
                .findFirst()
                .map(n -> new Finding(Rule.PCIE_RELAXED_ORDERING_OFF, "relaxed ordering off in the PCIe DevCtl of "
                        + n.name() + " " + n.address(), Map.of()));
    }
}
