package io.rdmamon.collector.pingmesh;

import io.rdmamon.collector.diagnosis.PathVerdicts;
import io.rdmamon.collector.live.PortKey;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.LongSupplier;

/**
 * The pingmesh's current path verdicts: the results' window localized ({@link PathLocalizer}) once a round, on a
 * worker (2,000 nodes × 8 ports took 1.2 s of CPU), and swapped whole, so that the diagnosis engine (which asks per
 * port of every sample) and {@code GET /api/pingmesh} read the same list without waiting for it.
 */
public final class PingmeshVerdicts implements PathVerdicts {
    private static final System.Logger LOG = System.getLogger(PingmeshVerdicts.class.getName());
    private final PingmeshResults results;
    private final PathLocalizer.Thresholds thresholds;
    private final LongSupplier clock;
    private final AtomicBoolean localizing = new AtomicBoolean();
    private volatile List<PathVerdict> current = List.of();
    private volatile PathVerdicts index = PathVerdicts.NONE;

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
        List<PathVerdict> verdicts = PathLocalizer.localize(results.pairStats(clock.getAsLong()), thresholds);
        current = verdicts;
        index = PathVerdicts.of(verdicts);
    }

    /** Localizes every {@code period} on a worker, never two at once (a slow one makes the next wait); the timer id. */
    public long start(Vertx vertx, Duration period) {
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
