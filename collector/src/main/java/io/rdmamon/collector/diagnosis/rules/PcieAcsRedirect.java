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
import java.util.TreeSet;

/**
 * pcie_acs_redirect: ACS P2P Request/Completion Redirect or Upstream Forwarding on a bridge between a GPU and this
 * port's device, on a path NCCL would use for GPUDirect RDMA (PIX/PXB): P2P goes up through the root complex.
 */
public final class PcieAcsRedirect implements PortRule {
    @Override
    public Rule id() {
        return Rule.PCIE_ACS_REDIRECT;
    }

    @Override
    public Optional<Finding> evaluate(PortInput in, DiagnosisConfig config) {
        List<GpuTopology.Pair> redirected = TopologyPairs.of(in).stream().filter(p -> !p.acsRedirect().isEmpty())
                .toList();
        if (redirected.isEmpty()) {
            return Optional.empty();
        }
        TreeSet<String> bridges = new TreeSet<>();
        redirected.forEach(p -> bridges.addAll(p.acsRedirect()));
        return Optional.of(new Finding(Rule.PCIE_ACS_REDIRECT, "ACS redirects P2P on bridge " + String.join(", ", bridges)
                + " between " + in.device().name() + " and " + TopologyPairs.gpus(redirected),
                Map.of("bridges", (double) bridges.size())));
    }
}
