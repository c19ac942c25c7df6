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
 * gpudirect_not_ready: a GPU that NCCL would pair with this port's device (its closest NIC) gets a {@code not_ready}
 * verdict from the agent's topology read (docs/topology.md): path beyond PXB, ACS redirect on the path, no peer
 * memory. Judged on every port of the device; the evidence is the pairs' first reasons.
 */
public final class GpudirectNotReady implements PortRule {
    @Override
    public Rule id() {
        return Rule.GPUDIRECT_NOT_READY;
    }

    @Override
    public Optional<Finding> evaluate(PortInput in, DiagnosisConfig config) {
        List<GpuTopology.Pair> bad = TopologyPairs.chosen(in).stream()
                .filter(p -> "not_ready".equals(p.verdict())).toList();
        if (bad.isEmpty()) {
            return Optional.empty();
        }
        StringBuilder evidence = new StringBuilder();
        for (GpuTopology.Pair pair : bad) {
            if (!evidence.isEmpty()) {
                evidence.append("; ");
            }
            evidence.append(pair.gpu()).append("↔").append(pair.nic()).append(" (").append(pair.path())
                    .append(") not_ready: ").append(pair.reasons().isEmpty() ? "no reason given" : pair.reasons().get(0));
        }
        return Optional.of(new Finding(Rule.GPUDIRECT_NOT_READY, evidence.toString(),
                Map.of("gpusNotReady", (double) bad.size())));
    }
}
