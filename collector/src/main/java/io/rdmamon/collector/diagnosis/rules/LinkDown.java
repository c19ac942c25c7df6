package io.rdmamon.collector.diagnosis.rules;

import io.rdmamon.collector.diagnosis.DiagnosisConfig;
import io.rdmamon.collector.diagnosis.Finding;
import io.rdmamon.collector.diagnosis.PortInput;
import io.rdmamon.collector.diagnosis.PortRule;
import io.rdmamon.collector.model.Rule;
import io.rdmamon.protocol.model.IbPort;

import java.util.Map;
import java.util.Optional;

/** link_down: the port's state was read and is not ACTIVE (an unreadable state, id -1, is no finding). */
public final class LinkDown implements PortRule {
    @Override
    public Rule id() {
        return Rule.LINK_DOWN;
    }

    @Override
    public Optional<Finding> evaluate(PortInput in, DiagnosisConfig config) {
        IbPort port = in.current();
        if (port.stateId() < 0 || port.isActive()) {
            return Optional.empty();
        }
        return Optional.of(new Finding(Rule.LINK_DOWN, "state " + port.stateId() + ": " + port.state()
                + (port.physState() == null ? "" : ", phys_state " + port.physStateId() + ": " + port.physState()),
                Map.of("stateId", (double) port.stateId(), "physStateId", (double) port.physStateId())));
    }
}
