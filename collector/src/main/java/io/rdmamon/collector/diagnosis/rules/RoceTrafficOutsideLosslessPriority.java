package io.rdmamon.collector.diagnosis.rules;

import io.rdmamon.collector.diagnosis.DiagnosisConfig;
import io.rdmamon.collector.diagnosis.Finding;
import io.rdmamon.collector.diagnosis.PortInput;
import io.rdmamon.collector.diagnosis.PortRule;
import io.rdmamon.collector.model.Rule;
import io.rdmamon.protocol.model.LosslessPriorities;
import io.rdmamon.protocol.model.EthtoolStats;
import io.rdmamon.protocol.model.PriorityCounters;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.SortedSet;

/**
 * roce_traffic_outside_lossless_priority: a RoCE port with PFC on some priority moves at least
 * {@code minRdmaBytesPerSecond} of RDMA bytes in a direction, and less than {@code minLosslessShare} of them travel
 * on the lossless priorities (configured, else learned from the port's PFC counters). The worse direction is
 * reported. A port without any PFC is {@link PfcNotEnabled}'s.
 */
public final class RoceTrafficOutsideLosslessPriority implements PortRule {
    @Override
    public Rule id() {
        return Rule.ROCE_TRAFFIC_OUTSIDE_LOSSLESS_PRIORITY;
    }

    @Override
    public Optional<Finding> evaluate(PortInput in, DiagnosisConfig config) {
        if (!PortDeltas.isRoce(in) || !PortDeltas.hasEthtoolPair(in)) {
            return Optional.empty();
        }
        EthtoolStats now = in.current().ethtool();
        if (now.priorities().isEmpty() || LosslessPriorities.of(in.current()).priorities().isEmpty()) {
            return Optional.empty();
        }
        SortedSet<Integer> lossless = PortDeltas.losslessPriorities(in, config); // not empty: PFC is on somewhere
        double txRdma = PortDeltas.rdmaBytes(in, "port_xmit_data", "tx_vport_rdma_unicast_bytes");
        double rxRdma = PortDeltas.rdmaBytes(in, "port_rcv_data", "rx_vport_rdma_unicast_bytes");
        if (!(txRdma >= config.minRdmaBytesPerSecond()) && !(rxRdma >= config.minRdmaBytesPerSecond())) {
            return Optional.empty();
        }
        Finding tx = direction("tx", txRdma, PortDeltas.priorityRates(in, PriorityCounters::txBytes), lossless, now, config);
        Finding rx = direction("rx", rxRdma, PortDeltas.priorityRates(in, PriorityCounters::rxBytes), lossless, now, config);
        Finding worse = tx == null ? rx : rx == null ? tx
                : rx.values().get("losslessShare") < tx.values().get("losslessShare") ? rx : tx;
        if (worse == null) {
            return Optional.empty();
        }
        String cause = QosCause.explain(in, lossless);
        return Optional.of(cause == null ? worse
                : new Finding(worse.rule(), worse.evidence() + "; cause: " + cause, worse.values()));
    }

    /** The finding of one direction; null when it moves too little RDMA or enough of it is on the lossless priorities. */
    private static Finding direction(String direction, double rdma, double[] byPriority, SortedSet<Integer> lossless,
                                     EthtoolStats ethtool, DiagnosisConfig config) {
        if (!(rdma >= config.minRdmaBytesPerSecond())) {
            return null;
        }
        double onLossless = 0;
        int top = -1;
        for (int p = 0; p < 8; p++) {
            if (lossless.contains(p)) {
                onLossless += PortDeltas.orZero(byPriority[p]);
            } else if (byPriority[p] > 0 && (top < 0 || byPriority[p] > byPriority[top])) {
                top = p;
            }
        }
        double share = Math.min(1, onLossless / rdma);
        if (share >= config.minLosslessShare()) {
            return null;
        }
        String where = lossless.equals(ethtool.pfcEnabledPriorities())
                ? "PFC enabled on priority " + Evidence.priorities(lossless) + " only"
                : "lossless priority " + Evidence.priorities(lossless) + " configured, PFC enabled on "
                + (ethtool.pfcEnabledPriorities().isEmpty() ? "none" : Evidence.priorities(ethtool.pfcEnabledPriorities()));
        Map<String, Double> values = new LinkedHashMap<>();
        values.put("rdmaBytesPerSecond", rdma);
        values.put("losslessShare", share);
        String text;
        if (top >= 0) {
            double topShare = Math.min(1, byPriority[top] / rdma);
            values.put("priority", (double) top);
            values.put("priorityShare", topShare);
            text = Evidence.percent(topShare) + " of RDMA " + direction + " bytes (" + Evidence.bytesPerSecond(rdma)
                    + ") on priority " + top + ", which has no PFC; " + where + " (" + Evidence.percent(share) + " there)";
        } else {
            text = "only " + Evidence.percent(share) + " of RDMA " + direction + " bytes (" + Evidence.bytesPerSecond(rdma)
                    + ") on the lossless priorities; " + where;
        }
        return new Finding(Rule.ROCE_TRAFFIC_OUTSIDE_LOSSLESS_PRIORITY, text, values);
    }
}
