package io.rdmamon.collector.diagnosis.rules;

import io.rdmamon.collector.diagnosis.DiagnosisConfig;
import io.rdmamon.collector.diagnosis.Finding;
import io.rdmamon.collector.diagnosis.PortInput;
import io.rdmamon.collector.diagnosis.PortRule;
import io.rdmamon.collector.model.Rule;
import io.rdmamon.collector.model.Severity;

import java.util.Optional;

/**
 * port_unreachable: the pingmesh blames the port and every probe to and from it failed, from all its peers.
 * Critical: nothing reaches the port over RDMA.
 */
public final class PortUnreachable implements PortRule {
    @Override
    public Rule id() {
        return Rule.PORT_UNREACHABLE;
    }

    @Override
    public Optional<Finding> evaluate(PortInput in, DiagnosisConfig config) {
        return PathFindings.of(Rule.PORT_UNREACHABLE, in, config, verdict -> Severity.CRITICAL);
    }
}
