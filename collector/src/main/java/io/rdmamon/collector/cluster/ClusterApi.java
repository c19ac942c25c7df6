package io.rdmamon.collector.cluster;

import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.core.metrics.Info;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.rdmamon.collector.web.JsonReplies;
import io.rdmamon.collector.web.Routes;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;

/**
 * {@code GET /api/cluster} ({@code {"clustered", "self", "members": [...]}}, docs/architecture.md "HTTP routes"; a lone
 * collector is a
 * cluster of one) and the self metrics that say which replica this is and how many there are.
 */
public final class ClusterApi implements Routes {
    public static final String PATH = "/api/cluster";
    private final FleetCluster cluster;

    public ClusterApi(FleetCluster cluster, PrometheusRegistry registry) {
        this.cluster = cluster;
        GaugeWithCallback.builder().name("rdmamon_collector_cluster_members")
                .help("Replicas in this collector's cluster, itself included (1 for a lone collector)")
                .callback(cb -> cb.call(cluster.memberIds().size())).register(registry);
        Info.builder().name("rdmamon_collector_replica")
                .help("This replica's id in the cluster (its JGroups member address; local for a lone collector)")
                .labelNames("replica").register(registry).addLabelValues(cluster.selfId());
    }

    @Override
    public void mount(Router router) {
        router.get(PATH).handler(ctx -> cluster.members().onComplete(members -> {
            if (members.failed()) {
                JsonReplies.error(ctx, 503, "cluster membership unavailable: " + members.cause().getMessage());
                return;
            }
            JsonArray list = new JsonArray();
            members.result().forEach(member -> list.add(member.toJson()));
            JsonReplies.ok(ctx, new JsonObject().put("clustered", cluster.clustered()).put("self", cluster.selfId())
                    .put("members", list));
        }));
    }
}
