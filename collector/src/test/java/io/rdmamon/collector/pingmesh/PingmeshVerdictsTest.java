package io.rdmamon.collector.pingmesh;

import io.rdmamon.collector.model.PortKey;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Lost round trips, and timed-out probes beside answered ones, count as loss only where a retransmission confirms them,
 * or nobody could have counted one.
 */
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

    /** 5 probes, one of which timed out (20 round trips sent and lost), the others answered 19 each. */
    private static PairStats timedOutOnce(PortKey src, PortKey dst) {
        return new PairStats(src, dst, "fleet", "fleet", 20 + 4 * 19, 20, 12e-6, 30e-6, 5, 1, 1, 20);
    }

    @Test
    void aTimedOutProbeWithoutARetransmissionAtEitherEndIsLeftOutWhenTheOthersGotThrough() {
        Map<PortKey, Map<String, Long>> quiet = Map.of(A, Map.of("rcvd_seq_err", 0L, "completer_retry_err", 0L),
                B, Map.of("out_of_seq_request", 0L));
        assertEquals(new PairStats(A, B, "fleet", "fleet", 4 * 19, 0, 12e-6, 30e-6, 4, 0),
                PingmeshVerdicts.confirmedLoss(List.of(timedOutOnce(A, B)), quiet::get).get(0), "a stalled host");

        Map<PortKey, Map<String, Long>> retransmitting = Map.of(A, Map.of("rcvd_seq_err", 0L, "completer_retry_err", 4L),
                B, Map.of("out_of_seq_request", 0L));
        assertEquals(List.of(timedOutOnce(A, B)), PingmeshVerdicts.confirmedLoss(List.of(timedOutOnce(A, B)),
                retransmitting::get), "a lossy path: the transport resent");

        PairStats neverThrough = new PairStats(A, B, "fleet", "fleet", 60, 60, Double.NaN, Double.NaN, 3, 3, 3, 60);
        assertEquals(List.of(neverThrough), PingmeshVerdicts.confirmedLoss(List.of(neverThrough), quiet::get),
                "a path that drops everything stays unreachable, counters or not");

        PairStats alsoFailed = new PairStats(A, B, "fleet", "fleet", 20 + 20 + 3 * 19, 40, 12e-6, 30e-6, 5, 2, 1, 20);
        assertEquals(List.of(alsoFailed), PingmeshVerdicts.confirmedLoss(List.of(alsoFailed), quiet::get),
                "perftest reported a failure too: not excused");
    }

    @Test
    void anEndWithoutRetransmissionCountersOrAFailedProbeLeavesThePairAsMeasured() {
        Map<PortKey, Map<String, Long>> deltas = Map.of(A, Map.of("rcvd_seq_err", 0L), C, Map.of("symbol_error", 0L),
                B, Map.of("rcvd_seq_err", 0L));
        assertEquals(List.of(lossy(A, C, 0), lossy(A, B, 1)),
                PingmeshVerdicts.confirmedLoss(List.of(lossy(A, C, 0), lossy(A, B, 1)), deltas::get));
    }
}
