package io.rdmamon.collector.cluster;

import io.rdmamon.collector.diagnosis.engine.DiagnosisEngine;
import io.rdmamon.collector.diagnosis.engine.FleetCounts;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

/**
 * The fleet baselines over the whole cluster (docs/architecture.md "Cluster"): every {@link #PERIOD} each replica
 * publishes its
 * diagnosis engine's fleet counts ({@link FleetCounts}: link rates per HCA model, QoS profiles) on
 * {@link FleetCluster#FLEET_BASELINE}, and counts the other replicas' with its own. A replica's counts go when it
 * leaves the cluster or after {@link #STALE_AFTER} without news; a malformed message is logged and dropped.
 * Nothing runs for a collector that is not clustered.
 */
public final class BaselineSharing {
    static final Duration PERIOD = Duration.ofSeconds(5);
    static final Duration STALE_AFTER = PERIOD.multipliedBy(3);
    private static final System.Logger LOG = System.getLogger(BaselineSharing.class.getName());
    private final Vertx vertx;
    private final FleetCluster cluster;
    private final DiagnosisEngine engine;
    private final Map<String, Long> heardAt = new HashMap<>();

    public BaselineSharing(Vertx vertx, FleetCluster cluster, DiagnosisEngine engine) {
        this.vertx = vertx;
        this.cluster = cluster;
        this.engine = engine;
    }

    /** Starts publishing and listening, on the caller's context. */
    public void start() {
        if (!cluster.clustered()) {
            return;
        }
        vertx.eventBus().<JsonObject>consumer(FleetCluster.FLEET_BASELINE, message -> heard(message.body()));
        cluster.onMemberLeft(this::forget);
        vertx.setPeriodic(PERIOD.toMillis() / 5, PERIOD.toMillis(), id -> {
            vertx.eventBus().publish(FleetCluster.FLEET_BASELINE, new JsonObject().put("replica", cluster.selfId())
                    .put("counts", engine.fleetCounts().toJson()));
            long now = System.currentTimeMillis();
            heardAt.entrySet().removeIf(e -> {
                boolean stale = now - e.getValue() > STALE_AFTER.toMillis();
                if (stale) {
                    engine.forgetReplica(e.getKey());
                }
                return stale;
            });
        });
    }

    void heard(JsonObject message) {
        String replica = message.getString("replica");
        if (replica == null || replica.equals(cluster.selfId())) {
            return;
        }
        try {
            engine.remoteFleetCounts(replica, FleetCounts.fromJson(message.getJsonObject("counts", new JsonObject())));
            heardAt.put(replica, System.currentTimeMillis());
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "fleet counts from replica {0} dropped: {1}", replica, e.getMessage());
        }
    }

    private void forget(String replica) {
        heardAt.remove(replica);
        engine.forgetReplica(replica);
    }
}
