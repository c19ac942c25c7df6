package io.rdmamon.collector.diagnosis.rules;

import io.rdmamon.collector.diagnosis.DiagnosisConfig;
import io.rdmamon.collector.diagnosis.Finding;
import io.rdmamon.collector.diagnosis.PortInput;
import io.rdmamon.collector.diagnosis.PortRule;
import io.rdmamon.collector.model.Rule;
import io.rdmamon.protocol.nccl.NcclAdvice;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * nccl_conf_mismatch (not a DESIGN §6 id; added with the NCCL advisor): the node's {@code /etc/nccl.conf} sets
 * {@code NCCL_IB_GID_INDEX} or {@code NCCL_IB_TC} to a value that contradicts this RoCE port (not a RoCE v2 IPv4 GID
 * here; a DSCP that maps to a priority without PFC here). {@code NCCL_IB_HCA} names devices of the whole host and
 * is reported by the advice ({@code nccl-env}, {@code /api/nodes/{node}/nccl}) only.
 */
public final class NcclConfMismatch implements PortRule {
    @Override
    public Rule id() {
        return Rule.NCCL_CONF_MISMATCH;
    }

    @Override
    public Optional<Finding> evaluate(PortInput in, DiagnosisConfig config) {
        Map<String, String> conf = in.ncclConf();
        if (conf == null || !PortDeltas.isRoce(in) || !in.current().isActive()
                || !conf.containsKey(NcclAdvice.GID_INDEX) && !conf.containsKey(NcclAdvice.TC)) {
            return Optional.empty();
        }
        List<String> mismatches = in.portQos().ncclMismatches();
        return mismatches.isEmpty() ? Optional.empty()
                : Optional.of(new Finding(Rule.NCCL_CONF_MISMATCH, String.join("; ", mismatches), Map.of()));
    }
}
