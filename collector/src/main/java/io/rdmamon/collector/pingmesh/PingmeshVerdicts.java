package io.rdmamon.collector.pingmesh;

import io.rdmamon.collector.diagnosis.PathVerdicts;
import io.rdmamon.collector.model.PathVerdict;
import io.rdmamon.collector.model.PortKey;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import java.util.function.LongSupplier;

/**
 * The pingmesh's current path verdicts: the results' window localized ({@link PathLocalizer}) once a round, on a
 * worker (2,000 nodes × 8 ports took 1.2 s of CPU), and swapped whole, so that the diagnosis engine (which asks per
 * port of every sample) and {@code GET /api/pingmesh} read the same list without waiting for it.
 *
 * <p>Loss is confirmed by both ends' counters first ({@link #confirmedLoss}): a round trip long enough to have waited
 * for a retransmission is a loss only if a retransmission happened. Where both ends count their transport's
 * retransmissions and neither counted one over the window, the long round trips were the hosts (a CPU that did not run
 * perftest in time: R-Pingmesh's "CPU overload" noise), so the pair is judged on its latency, not as lossy. In the
 * Soft-RoCE lab a 100 ms netem delay on one VM made its polling probes starve its single vCPU into round trips past
 * the loss threshold, with no retransmission counted anywhere. Probes that timed out are excused the same way when the
 * pair's other probes got through: a host that stalled (the lab's agents, cold under TCG, did) times out a probe
 * without a packet lost, while a path that drops packets makes the transport retransmit; a path that drops everything
 * has no probe that got through, and stays unreachable.
 */
public final class PingmeshVerdicts implements PathVerdicts {
    /**
     * The transport counters that rise when a packet was lost and resent: mlx5's {@code out_of_sequence},
     * {@code packet_seq_err}, {@code local_ack_timeout_err}; rxe's {@code out_of_seq_request}, {@code rcvd_seq_err},
     * {@code completer_retry_err} (the names {@link PathCounters} keeps).
     */
    static final Set<String> RETRANSMISSIONS = Set.of("out_of_sequence", "packet_seq_err", "local_ack_timeout_err",
            "out_of_seq_request", "rcvd_seq_err", "completer_retry_err");
    private static final System.Logger LOG = System.getLogger(PingmeshVerdicts.class.getName());
    private final PingmeshResults results;
    private final PathLocalizer.Thresholds thresholds;
    private final LongSupplier clock;
    private final AtomicBoolean localizing = new AtomicBoolean();
    private volatile List<PathVerdict> current = List.of();
    private volatile PathVerdicts index = PathVerdicts.NONE;
    private volatile Function<PortKey, Map<String, Long>> counterDeltas = port -> Map.of();

    public PingmeshVerdicts(PingmeshResults results, PathLocalizer.Thresholds thresholds, LongSupplier clock) {
        this.results = results;
        this.thresholds = thresholds;
        this.clock = clock;
    }

    @Override
    public List<PathVerdict> forPort(PortKey port) {
        return index.forPort(port);
    }

    /** The verdicts as the matrix's {@code verdicts} array. */
    public JsonArray json() {
        JsonArray array = new JsonArray();
        current.forEach(verdict -> array.add(verdict.toJson()));
        return array;
    }

    /** Localizes the window as it is now; blocking: call it on a worker. */
    public void localize() {
        List<PairStats> pairs = confirmedLoss(results.pairStats(clock.getAsLong()), counterDeltas);
        List<PathVerdict> verdicts = PathLocalizer.localize(pairs, thresholds);
        current = verdicts;
        index = PathVerdicts.of(verdicts);
        // what a stale or missing verdict is told apart by: whether the localizer ran, and on what
        LOG.log(System.Logger.Level.DEBUG, () -> "pingmesh: localized " + pairs.size() + " pairs: " + verdicts.stream()
                .map(v -> v.rule().id() + " " + v.describe()).toList());
    }

    /**
     * The pairs with their lost round trips kept only where a retransmission confirms them. A pair that lost round
     * trips, whose failed probes (if any) all timed out while at least one probe got through, and whose two ends both
     * count retransmissions and counted none over the window, keeps the round trips of the probes that got through
     * but loses no more; its timed-out probes are left out, as if skipped. Ends whose counters are unknown, and a pair
     * whose perftest reported a failure or that never got through, stay as measured.
     *
     * @param counterDeltas how much each counter of a port rose over the window ({@link Pingmesh#counterDeltas})
     */
    static List<PairStats> confirmedLoss(List<PairStats> pairs, Function<PortKey, Map<String, Long>> counterDeltas) {
        List<PairStats> confirmed = new ArrayList<>(pairs.size());
        for (PairStats pair : pairs) {
            boolean onlyTimeouts = pair.failedProbes() == pair.timedOutProbes() && pair.probes() > pair.failedProbes();
            if (pair.lost() > 0 && onlyTimeouts) {
                Map<String, Long> src = counterDeltas.apply(pair.src());
                Map<String, Long> dst = counterDeltas.apply(pair.dst());
                if (countsRetransmissions(src) && countsRetransmissions(dst) && retransmitted(src) + retransmitted(dst) == 0) {
                    confirmed.add(new PairStats(pair.src(), pair.dst(), pair.srcGroup(), pair.dstGroup(),
                            pair.sent() - pair.timedOutRoundTrips(), 0, pair.p50Seconds(), pair.p99Seconds(),
                            pair.probes() - pair.timedOutProbes(), 0));
                    continue;
                }
            }
            confirmed.add(pair);
        }
        return confirmed;
    }

    private static boolean countsRetransmissions(Map<String, Long> deltas) {
        return deltas.keySet().stream().anyMatch(RETRANSMISSIONS::contains);
    }

    private static long retransmitted(Map<String, Long> deltas) {
        return deltas.entrySet().stream().filter(e -> RETRANSMISSIONS.contains(e.getKey()))
                .mapToLong(Map.Entry::getValue).sum();
    }

    /**
     * Localizes every {@code period} on a worker, never two at once (a slow one makes the next wait); the timer id.
     *
     * @param counterDeltas how much each counter of a port rose over the window, to confirm loss with
     */
    public long start(Vertx vertx, Duration period, Function<PortKey, Map<String, Long>> counterDeltas) {
        this.counterDeltas = counterDeltas;
        return vertx.setPeriodic(period.toMillis(), period.toMillis(), id -> {
            if (localizing.compareAndSet(false, true)) {
                vertx.executeBlocking(() -> {
                    localize();
                    return null;
                }, false).onComplete(done -> {
                    localizing.set(false);
                    if (done.failed()) {
                        LOG.log(System.Logger.Level.WARNING, "pingmesh: localizing the path verdicts failed", done.cause());
                    }
                });
            }
        });
    }
}
