package io.rdmamon.collector.cluster;

import io.vertx.core.json.JsonObject;

/**
 * One replica as {@code /api/cluster} shows it.
 *
 * @param id           the replica's id (the Hazelcast member UUID; {@value FleetCluster#LONE_ID} for a lone collector)
 * @param address      its cluster {@code HOST:PORT}; null for a lone collector
 * @param api          the base URL its HTTP server listens on; null until it announced it
 * @param self         whether it is the replica answering
 * @param nodes        the nodes it holds (node directory entries)
 * @param joinedMillis when it announced itself; 0 when unknown
 */
public record ClusterMember(String id, String address, String api, boolean self, int nodes, long joinedMillis) {
    public JsonObject toJson() {
        return new JsonObject().put("id", id).put("address", address).put("api", api).put("self", self)
                .put("nodes", nodes).put("joinedMillis", joinedMillis);
    }
}
