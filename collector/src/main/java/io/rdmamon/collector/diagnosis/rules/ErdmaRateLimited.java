package io.rdmamon.collector.diagnosis.rules;

import io.rdmamon.collector.diagnosis.DiagnosisConfig;
import io.rdmamon.collector.diagnosis.Finding;
import io.rdmamon.collector.diagnosis.PortInput;
import io.rdmamon.collector.diagnosis.PortRule;
import io.rdmamon.collector.model.Rule;

import java.util.List;
import java.util.Optional;

/** erdma_rate_limited: eRDMA's bandwidth / packet-rate limit drop counters increase faster than {@code erdmaDropsPerSecond}. */
public final class ErdmaRateLimited implements PortRule {
    // upstream erdma names, then those of the first out-of-tree patch (hw_ prefix, tx implied); see rdmamon-recording.yml
    private static final List<String> ERDMA_DROPS = List.of("tx_bps_limit_drop_cnt", "tx_pps_limit_drop_cnt",
            "rx_bps_limit_drop_cnt", "rx_pps_limit_drop_cnt", "hw_bps_limit_drop_cnt", "hw_pps_limit_drop_cnt",
            "hw_rx_bps_limit_drop_cnt", "hw_rx_pps_limit_drop_cnt");

    @Override
    public Rule id() {
        return Rule.ERDMA_RATE_LIMITED;
    }

    @Override
    public Optional<Finding> evaluate(PortInput in, DiagnosisConfig config) {
        PortDeltas.Sum drops = PortDeltas.hwSum(in, ERDMA_DROPS);
        if (!(drops.total() > config.erdmaDropsPerSecond())) {
            return Optional.empty();
        }
        return Optional.of(new Finding(Rule.ERDMA_RATE_LIMITED, Evidence.perSecond(drops.total())
                + " packets dropped at the instance limit (" + drops.parts() + ")", drops.values("dropsPerSecond")));
    }
}
