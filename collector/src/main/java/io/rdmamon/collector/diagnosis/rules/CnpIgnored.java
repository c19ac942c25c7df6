package io.rdmamon.collector.diagnosis.rules;

import io.rdmamon.collector.diagnosis.DiagnosisConfig;
import io.rdmamon.collector.diagnosis.Finding;
import io.rdmamon.collector.diagnosis.PortInput;
import io.rdmamon.collector.diagnosis.PortRule;
import io.rdmamon.collector.model.Rule;

import java.util.Map;
import java.util.Optional;

/** cnp_ignored: {@code rp_cnp_ignored} increases faster than {@code cnpIgnoredPerSecond}, on any port that counts it. */
public final class CnpIgnored implements PortRule {
    @Override
    public Rule id() {
        return Rule.CNP_IGNORED;
    }

    @Override
    public Optional<Finding> evaluate(PortInput in, DiagnosisConfig config) {
        double ignored = PortDeltas.hw(in, "rp_cnp_ignored");
        if (!(ignored > config.cnpIgnoredPerSecond())) {
            return Optional.empty();
        }
        return Optional.of(new Finding(Rule.CNP_IGNORED, "rp_cnp_ignored " + Evidence.perSecond(ignored)
                + ": CNPs arrive but the reaction point does not slow down", Map.of("cnpIgnoredPerSecond", ignored)));
    }
}
