package io.rdmamon.collector.diagnosis.rules;

import io.rdmamon.collector.diagnosis.DiagnosisConfig;
import io.rdmamon.collector.diagnosis.Finding;
import io.rdmamon.collector.diagnosis.PortInput;
import io.rdmamon.collector.diagnosis.PortRule;
import io.rdmamon.collector.model.QosProfile;
import io.rdmamon.collector.model.Rule;
import io.rdmamon.protocol.model.QosConfig;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * qos_config_drift: a RoCE port's QoS configuration differs from the fleet profile (configured, else the strict
 * majority of RoCE ports with a configuration) in trust, PFC priorities, the priority of the RoCE DSCP, the traffic
 * class of the PFC priorities or (when required) ECN. Only parts both sides know are compared. The evidence names
 * the differences and the commands that restore the fleet's profile.
 */
public final class QosConfigDrift implements PortRule {
    @Override
    public Rule id() {
        return Rule.QOS_CONFIG_DRIFT;
    }

    @Override
    public Optional<Finding> evaluate(PortInput in, DiagnosisConfig config) {
        QosProfile.Fleet fleet = in.fleetQos();
        QosConfig qos = in.current().qos();
        if (fleet == null || !PortDeltas.isRoce(in) || in.portQos().profile() == null) {
            return Optional.empty();
        }
        QosProfile wanted = fleet.profile();
        // the fleet's DSCP judges this port's map when the port sets none of its own
        QosProfile port = in.portQos().roceDscp() != null ? in.portQos().profile() : QosProfile.of(qos, wanted.roceDscp());
        List<String> differences = new ArrayList<>(port.differences(wanted));
        if (!config.ecnRequired()) {
            differences.remove("ecn");
        }
        if (differences.isEmpty()) {
            return Optional.empty();
        }
        String netdev = in.current().netdev();
        List<String> fixes = new ArrayList<>();
        Integer lossless = wanted.pfc() == null || wanted.pfc().isEmpty() ? null : wanted.pfc().first();
        if (differences.contains("pfc")) {
            fixes.add(QosFixes.pfc(netdev, port.pfc(), wanted.pfc()));
        }
        if ((differences.contains("trust") && "dscp".equals(wanted.trust()) || differences.contains("dscp"))
                && wanted.roceDscp() != null && wanted.roceDscpPriority() != null) {
            fixes.add(differences.contains("trust")
                    ? QosFixes.trustDscp(netdev, wanted.roceDscp(), wanted.roceDscpPriority())
                    : QosFixes.dscp(netdev, wanted.roceDscp(), wanted.roceDscpPriority()));
        } else if (differences.contains("trust")) {
            fixes.add("mlnx_qos -i " + netdev + " --trust " + wanted.trust());
        }
        if (differences.contains("ets")) {
            int i = 0;
            for (int p : wanted.pfc()) {
                fixes.add(QosFixes.priorityTc(netdev, p, wanted.losslessTc().get(i++)));
            }
        }
        if (differences.contains("ecn") && lossless != null) {
            fixes.add(QosFixes.ecn(netdev, lossless));
        }
        return Optional.of(new Finding(Rule.QOS_CONFIG_DRIFT, netdev + " runs " + port.describe() + " — "
                + fleet.origin() + " runs " + wanted.describe() + "; differs in " + String.join(", ", differences)
                + (fixes.isEmpty() ? "" : "; fix: " + String.join("; ", fixes)), Map.of()));
    }
}
