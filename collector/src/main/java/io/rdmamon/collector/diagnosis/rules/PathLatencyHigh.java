package io.rdmamon.collector.diagnosis.rules;

import io.rdmamon.collector.diagnosis.DiagnosisConfig;
import io.rdmamon.collector.diagnosis.Finding;
import io.rdmamon.collector.diagnosis.PortInput;
import io.rdmamon.collector.diagnosis.PortRule;
import io.rdmamon.collector.model.Rule;
import io.rdmamon.collector.model.Severity;

import java.util.Optional;

/**
 * path_latency_high: a pingmesh verdict of slow round trips without loss is raised on the port. Warning: slow paths
 * cost collective time, but nothing is lost, and an overloaded host slows its own replies too (docs/pingmesh.md).
 */
public final class PathLatencyHigh implements PortRule {
    @Override
    public Rule id() {
        return Rule.PATH_LATENCY_HIGH;
    }

    @Override
    public Optional<Finding> evaluate(PortInput in, DiagnosisConfig config) {
        return PathFindings.of(Rule.PATH_LATENCY_HIGH, in, config, verdict -> Severity.WARNING);
    }
}
