package io.rdmamon.collector.diagnosis.rules;

import io.rdmamon.collector.diagnosis.DiagnosisConfig;
import io.rdmamon.collector.diagnosis.Finding;
import io.rdmamon.collector.diagnosis.PortInput;
import io.rdmamon.collector.diagnosis.PortRule;
import io.rdmamon.collector.model.QosProfile;
import io.rdmamon.collector.model.RoceDscp;
import io.rdmamon.collector.model.Rule;

import java.util.Map;
import java.util.Optional;

/**
 * qos_trust_not_dscp: a RoCE port whose DCB configuration was read trusts PCP, while RoCE v2 runs untagged (so it
 * lands on priority 0). Silent when the fleet profile itself is trust pcp (an L2 fabric that tags on purpose).
 */
public final class QosTrustNotDscp implements PortRule {
    @Override
    public Rule id() {
        return Rule.QOS_TRUST_NOT_DSCP;
    }

    @Override
    public Optional<Finding> evaluate(PortInput in, DiagnosisConfig config) {
        if (!PortDeltas.isRoce(in)) {
            return Optional.empty();
        }
        QosProfile port = in.portQos().profile();
        QosProfile.Fleet fleet = in.fleetQos();
        if (port == null || !"pcp".equals(port.trust()) || fleet != null && "pcp".equals(fleet.profile().trust())) {
            return Optional.empty();
        }
        String netdev = in.current().netdev();
        Integer lossless = port.pfc() != null && !port.pfc().isEmpty() ? port.pfc().first()
                : fleet != null && fleet.profile().pfc() != null && !fleet.profile().pfc().isEmpty()
                ? fleet.profile().pfc().first() : null;
        RoceDscp dscp = QosCause.roceDscp(in);
        String fix = dscp != null && lossless != null ? QosFixes.trustDscp(netdev, dscp.dscp(), lossless)
                : "`dcb app add dev " + netdev + " dscp-prio DSCP:PRIO` for the RoCE DSCP and the PFC priority "
                + "(mlnx_qos -i " + netdev + " --trust dscp)";
        return Optional.of(new Finding(Rule.QOS_TRUST_NOT_DSCP, "trust pcp on " + netdev
                + " (no DSCP entry in the APP table): untagged RoCE v2 lands on priority 0"
                + (port.pfc() != null && port.pfc().contains(0) ? "" : ", which has no PFC") + "; fix: " + fix,
                Map.of()));
    }
}
