package io.rdmamon.collector.diagnosis.rules;

import io.rdmamon.collector.diagnosis.DiagnosisConfig;
import io.rdmamon.collector.diagnosis.Finding;
import io.rdmamon.collector.diagnosis.PortInput;
import io.rdmamon.collector.diagnosis.PortRule;
import io.rdmamon.collector.model.Rule;
import io.rdmamon.protocol.model.PriorityCounters;

import java.util.Map;
import java.util.Optional;

/**
 * ecn_not_engaged: a RoCE port receives at least {@code ecnMinPauseFramesPerSecond} PFC pause frames while its
 * congestion counters (ECN-marked packets, CNPs sent, handled and ignored) stay at 0. A port without those counters
 * is not judged; CNPs that arrive and are ignored are {@link CnpIgnored}'s.
 */
public final class EcnNotEngaged implements PortRule {
    @Override
    public Rule id() {
        return Rule.ECN_NOT_ENGAGED;
    }

    @Override
    public Optional<Finding> evaluate(PortInput in, DiagnosisConfig config) {
        if (!PortDeltas.isRoce(in) || !PortDeltas.hasEthtoolPair(in)) {
            return Optional.empty();
        }
        double[] rxPauses = PortDeltas.priorityRates(in, PriorityCounters::rxPauseFrames);
        double pauses = 0;
        int top = -1;
        for (int p = 0; p < 8; p++) {
            if (rxPauses[p] > 0) {
                pauses += rxPauses[p];
                if (top < 0 || rxPauses[p] > rxPauses[top]) {
                    top = p;
                }
            }
        }
        if (!(pauses >= config.ecnMinPauseFramesPerSecond())) {
            return Optional.empty();
        }
        double handled = PortDeltas.hw(in, "rp_cnp_handled");
        if (Double.isNaN(handled) || handled > 0 || PortDeltas.hw(in, "np_ecn_marked_roce_packets") > 0
                || PortDeltas.hw(in, "np_cnp_sent") > 0 || PortDeltas.hw(in, "rp_cnp_ignored") > 0) {
            return Optional.empty(); // no congestion counters to judge by, ECN working, or CNPs arriving and ignored
        }
        return Optional.of(new Finding(Rule.ECN_NOT_ENGAGED, "receives " + Evidence.perSecond(pauses)
                + " PFC pause frames (most on priority " + top + ") while ECN-marked packets, CNPs sent and CNPs handled"
                + " stay at 0", Map.of("rxPauseFramesPerSecond", pauses, "priority", (double) top)));
    }
}
