package io.rdmamon.collector.diagnosis.rules;

import io.rdmamon.collector.diagnosis.DiagnosisConfig;
import io.rdmamon.collector.diagnosis.Finding;
import io.rdmamon.collector.diagnosis.PortInput;
import io.rdmamon.collector.diagnosis.PortRule;
import io.rdmamon.collector.model.RoceDscp;
import io.rdmamon.collector.model.Rule;
import io.rdmamon.protocol.model.QosConfig;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * roce_dscp_not_lossless: on a RoCE port that trusts DSCP and has PFC on some priority, the DSCP RoCE is sent with
 * (OFED traffic_class, rdma_cm default_roce_tos, NCCL_IB_TC in /etc/nccl.conf, else the fleet profile's) maps to a
 * priority without PFC. Trust pcp is qos_trust_not_dscp's; PFC off everywhere is pfc_not_enabled's.
 */
public final class RoceDscpNotLossless implements PortRule {
    @Override
    public Rule id() {
        return Rule.ROCE_DSCP_NOT_LOSSLESS;
    }

    @Override
    public Optional<Finding> evaluate(PortInput in, DiagnosisConfig config) {
        QosConfig qos = in.current().qos();
        if (!PortDeltas.isRoce(in) || qos == null || qos.pfc() == null || !"dscp".equals(qos.trust())) {
            return Optional.empty();
        }
        List<Integer> pfc = qos.pfcPriorities();
        RoceDscp dscp = QosCause.roceDscp(in);
        if (pfc.isEmpty() || dscp == null) {
            return Optional.empty();
        }
        Integer priority = qos.priorityOfDscp(dscp.dscp());
        if (priority != null && pfc.contains(priority)) {
            return Optional.empty();
        }
        String netdev = in.current().netdev();
        return Optional.of(new Finding(Rule.ROCE_DSCP_NOT_LOSSLESS, "RoCE uses DSCP " + dscp.dscp() + " ("
                + dscp.origin() + "), which maps to " + (priority == null ? "no APP entry (priority 0)" : "priority " + priority)
                + " on " + netdev + "; PFC is on priority " + Evidence.priorities(new java.util.TreeSet<>(pfc)) + "; fix: "
                + QosFixes.dscp(netdev, dscp.dscp(), pfc.get(0)), Map.of("dscp", (double) dscp.dscp())));
    }
}
