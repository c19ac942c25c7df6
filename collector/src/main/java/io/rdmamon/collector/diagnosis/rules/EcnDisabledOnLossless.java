package io.rdmamon.collector.diagnosis.rules;

import io.rdmamon.collector.diagnosis.DiagnosisConfig;
import io.rdmamon.collector.diagnosis.Finding;
import io.rdmamon.collector.diagnosis.PortInput;
import io.rdmamon.collector.diagnosis.PortRule;
import io.rdmamon.collector.model.Rule;
import io.rdmamon.protocol.model.QosConfig;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * ecn_disabled_on_lossless: a readable MLNX_OFED ECN file says DCQCN (np or rp) is off on a priority with PFC.
 * Unreadable files say nothing; off for a fleet that sets {@code ecnRequired} false.
 */
public final class EcnDisabledOnLossless implements PortRule {
    @Override
    public Rule id() {
        return Rule.ECN_DISABLED_ON_LOSSLESS;
    }

    @Override
    public Optional<Finding> evaluate(PortInput in, DiagnosisConfig config) {
        QosConfig qos = in.current().qos();
        if (!config.ecnRequired() || !PortDeltas.isRoce(in) || qos == null || qos.ecn() == null) {
            return Optional.empty();
        }
        List<String> off = new ArrayList<>();
        Integer first = null;
        for (int p : qos.pfcPriorities()) {
            List<String> roles = new ArrayList<>();
            if (Boolean.FALSE.equals(qos.ecn().notificationPoint().get(p))) {
                roles.add("roce_np");
            }
            if (Boolean.FALSE.equals(qos.ecn().reactionPoint().get(p))) {
                roles.add("roce_rp");
            }
            if (!roles.isEmpty()) {
                off.add(String.join("+", roles) + " off on priority " + p);
                first = first == null ? p : first;
            }
        }
        if (off.isEmpty()) {
            return Optional.empty();
        }
        String netdev = in.current().netdev();
        return Optional.of(new Finding(Rule.ECN_DISABLED_ON_LOSSLESS, "ECN " + String.join(", ", off) + " of "
                + netdev + " (a PFC priority); fix: " + QosFixes.ecn(netdev, first), Map.of()));
    }
}
