package io.rdmamon.collector.pingmesh;

import io.rdmamon.collector.live.PortKey;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Lost round trips count as loss only where a retransmission confirms them, or nobody could have counted one. */
class PingmeshVerdictsTest {
    private static final PortKey A = new PortKey("a", "rxe0", 1);
    private static final PortKey B = new PortKey("b", "rxe0", 1);
    private static final PortKey C = new PortKey("c", "mlx5_0", 1);

    private static PairStats lossy(PortKey src, PortKey dst, int failedProbes) {
        return new PairStats(src, dst, "fleet", "fleet", 100, 8, 0.12, 0.7, 5, failedProbes);
    }

    @Test
    void longRoundTripsWithoutARetransmissionAtEitherEndAreSlownessNotLoss() {
        Map<PortKey, Map<String, Long>> deltas = Map.of(
                A, Map.of("out_of_seq_request", 0L, "rcvd_seq_err", 0L, "completer_retry_err", 0L),
                B, Map.of("out_of_seq_request", 0L, "rcvd_seq_err", 0L, "completer_retry_err", 0L));
        List<PairStats> confirmed = PingmeshVerdicts.confirmedLoss(List.of(lossy(A, B, 0)), deltas::get);
        assertEquals(new PairStats(A, B, "fleet", "fleet", 100, 0, 0.12, 0.7, 5, 0), confirmed.get(0));
    }

    @Test
    void aRetransmissionAtEitherEndConfirmsTheLoss() {
        Map<PortKey, Map<String, Long>> deltas = Map.of(
                A, Map.of("rcvd_seq_err", 3L, "completer_retry_err", 2L), B, Map.of("out_of_seq_request", 0L));
        assertEquals(List.of(lossy(A, B, 0)), PingmeshVerdicts.confirmedLoss(List.of(lossy(A, B, 0)), deltas::get));
    }

    @Test
    void anEndWithoutRetransmissionCountersOrAFailedProbeLeavesThePairAsMeasured() {
        Map<PortKey, Map<String, Long>> deltas = Map.of(A, Map.of("rcvd_seq_err", 0L), C, Map.of("symbol_error", 0L),
                B, Map.of("rcvd_seq_err", 0L));
        assertEquals(List.of(lossy(A, C, 0), lossy(A, B, 1)),
                PingmeshVerdicts.confirmedLoss(List.of(lossy(A, C, 0), lossy(A, B, 1)), deltas::get));
    }
}
