package io.rdmamon.collector.diagnosis.rules;

import io.rdmamon.collector.diagnosis.DiagnosisConfig;
import io.rdmamon.collector.diagnosis.Finding;
import io.rdmamon.collector.diagnosis.PortInput;
import io.rdmamon.collector.diagnosis.PortRule;
import io.rdmamon.collector.model.Rule;

import java.util.List;
import java.util.Optional;

/**
 * transport_loss: transport errors (out of sequence, sequence errors, ACK timeouts) faster than
 * {@code transportErrorsPerSecond} on a port that should be lossless: InfiniBand, or RoCE with a lossless priority.
 */
public final class TransportLoss implements PortRule {
    /**
     * mlx5's names, then Soft-RoCE's (rxe, kernel {@code rxe_hw_counters.c}) for the same three events: a request
     * arriving after a gap (responder), a NAK for a sequence error received and a retransmission after an ACK timeout
     * (requester). A device exports one set or the other, so the sum never counts an event twice. The path rules show
     * them as counters of both ends.
     */
    static final List<String> TRANSPORT_ERRORS = List.of("out_of_sequence", "packet_seq_err",
            "local_ack_timeout_err", "out_of_seq_request", "rcvd_seq_err", "completer_retry_err");

    @Override
    public Rule id() {
        return Rule.TRANSPORT_LOSS;
    }

    @Override
    public Optional<Finding> evaluate(PortInput in, DiagnosisConfig config) {
        boolean lossless = "InfiniBand".equals(in.current().linkLayer())
                || PortDeltas.isRoce(in) && !PortDeltas.losslessPriorities(in, config).isEmpty();
        if (!lossless) {
            return Optional.empty();
        }
        PortDeltas.Sum errors = PortDeltas.hwSum(in, TRANSPORT_ERRORS);
        if (!(errors.total() > config.transportErrorsPerSecond())) {
            return Optional.empty();
        }
        return Optional.of(new Finding(Rule.TRANSPORT_LOSS, Evidence.perSecond(errors.total()) + " transport errors ("
                + errors.parts() + ") on a port that should be lossless", errors.values("transportErrorsPerSecond")));
    }
}
