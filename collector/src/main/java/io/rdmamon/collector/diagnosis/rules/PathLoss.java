package io.rdmamon.collector.diagnosis.rules;

import io.rdmamon.collector.diagnosis.DiagnosisConfig;
import io.rdmamon.collector.diagnosis.Finding;
import io.rdmamon.collector.diagnosis.PortInput;
import io.rdmamon.collector.diagnosis.PortRule;
import io.rdmamon.collector.model.Rule;
import io.rdmamon.collector.model.Severity;

import java.util.Optional;

/**
 * path_loss: a pingmesh verdict of lost round trips is raised on the port (the culprit port, a port of the culprit
 * group, an end of a bad pair under a bad spine, the source of a bad path). Warning; critical from
 * {@link #CRITICAL_LOSS} of the round trips lost, because RoCE's go-back-N retransmission turns a few percent of
 * loss into a collapse of throughput.
 */
public final class PathLoss implements PortRule {
    /** The loss ratio from which path_loss is critical. */
    public static final double CRITICAL_LOSS = 0.05;

    @Override
    public Rule id() {
        return Rule.PATH_LOSS;
    }

    @Override
    public Optional<Finding> evaluate(PortInput in, DiagnosisConfig config) {
        return PathFindings.of(Rule.PATH_LOSS, in, config, verdict -> Double.isNaN(verdict.lossRatio())
                || verdict.lossRatio() >= CRITICAL_LOSS ? Severity.CRITICAL : Severity.WARNING);
    }
}
