package io.rdmamon.collector.diagnosis.rules;

import io.rdmamon.collector.diagnosis.DiagnosisConfig;
import io.rdmamon.collector.diagnosis.Finding;
import io.rdmamon.collector.diagnosis.PortInput;
import io.rdmamon.collector.diagnosis.PortRule;
import io.rdmamon.collector.diagnosis.Rule;
import io.rdmamon.protocol.model.EthtoolStats;

import java.util.Map;
import java.util.Optional;

/**
 * pfc_not_enabled: a RoCE port with per-priority counters moves at least {@code minRdmaBytesPerSecond} of RDMA
 * bytes in a direction and has PFC on no priority (whatever {@code losslessPriorities} says).
 */
public final class PfcNotEnabled implements PortRule {
    @Override
    public Rule id() {
        return Rule.PFC_NOT_ENABLED;
    }

    @Override
    public Optional<Finding> evaluate(PortInput in, DiagnosisConfig config) {
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
}
