package io.rdmamon.collector.diagnosis.rules;

import io.rdmamon.collector.diagnosis.DiagnosisConfig;
import io.rdmamon.collector.diagnosis.Finding;
import io.rdmamon.collector.diagnosis.PortInput;
import io.rdmamon.collector.diagnosis.PortRule;
import io.rdmamon.collector.model.QosProfile;
import io.rdmamon.collector.model.RoceDscp;
import io.rdmamon.collector.model.Rule;
import io.rdmamon.protocol.model.EthtoolStats;
import io.rdmamon.protocol.model.QosConfig;

import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * pfc_not_enabled: a RoCE port with per-priority counters moves at least {@code minRdmaBytesPerSecond} of RDMA
 * bytes in a direction and has PFC on no priority (whatever {@code losslessPriorities} says); or, before any
 * traffic, a RoCE port whose read DCB configuration has PFC on no priority (the configuration then decides alone).
 */
public final class PfcNotEnabled implements PortRule {
    @Override
    public Rule id() {
        return Rule.PFC_NOT_ENABLED;
    }

    /** A read PFC configuration judges on any sample, before any traffic; the counters need two samples. */
    @Override
    public boolean judges(PortInput in) {
        return configured(in) != null || in.hasRates();
    }

    private static QosConfig.Pfc configured(PortInput in) {
        return in.current().qos() == null ? null : in.current().qos().pfc();
    }

    @Override
    public Optional<Finding> evaluate(PortInput in, DiagnosisConfig config) {
        QosConfig.Pfc pfc = configured(in);
        if (pfc != null) {
            return PortDeltas.isRoce(in) && pfc.enabledMask() == 0 ? Optional.of(fromConfiguration(in)) : Optional.empty();
        }
        if (!PortDeltas.isRoce(in) || !PortDeltas.hasEthtoolPair(in)) {
            return Optional.empty();
        }
        EthtoolStats now = in.current().ethtool();
        if (now.priorities().isEmpty() || !now.pfcEnabledPriorities().isEmpty()) {
            return Optional.empty();
        }
        double tx = PortDeltas.orZero(PortDeltas.rdmaBytes(in, "port_xmit_data", "tx_vport_rdma_unicast_bytes"));
        double rx = PortDeltas.orZero(PortDeltas.rdmaBytes(in, "port_rcv_data", "rx_vport_rdma_unicast_bytes"));
        double busiest = Math.max(tx, rx);
        if (!(busiest >= config.minRdmaBytesPerSecond())) {
            return Optional.empty();
        }
        return Optional.of(new Finding(Rule.PFC_NOT_ENABLED, Evidence.bytesPerSecond(busiest) + " of RDMA "
                + (tx >= rx ? "tx" : "rx") + " traffic and no priority has PFC enabled on " + now.netdev()
                + " (no rx_prioN_pause counters)", Map.of("rdmaBytesPerSecond", busiest)));
    }

    /** The finding of a port whose PFC configuration has no priority on, with the fleet's priorities as the fix. */
    private static Finding fromConfiguration(PortInput in) {
        String netdev = in.current().netdev();
        QosProfile.Fleet fleet = in.fleetQos();
        String fix;
        if (fleet != null && fleet.profile().pfc() != null && !fleet.profile().pfc().isEmpty()) {
            fix = QosFixes.pfc(netdev, Set.of(), fleet.profile().pfc()) + ", as " + fleet.origin() + " runs";
        } else {
            RoceDscp dscp = QosCause.roceDscp(in);
            Integer priority = dscp == null ? null : in.current().qos().priorityOfDscp(dscp.dscp());
            fix = priority == null ? "enable PFC on the fabric's lossless priority: `dcb pfc set dev " + netdev
                    + " prio-pfc PRIO:on`" : QosFixes.pfc(netdev, Set.of(), Set.of(priority)) + ", the priority of RoCE DSCP "
                    + dscp.dscp() + " (" + dscp.origin() + ")";
        }
        return new Finding(Rule.PFC_NOT_ENABLED, "the DCB configuration of " + netdev + " has PFC on no priority (pfc_en 0"
                + (in.current().qos().trust().equals("pcp") && in.current().qos().app().isEmpty() ? ", trust pcp: as after a reboot or driver reload" : "")
                + "); fix: " + fix, Map.of());
    }
}
