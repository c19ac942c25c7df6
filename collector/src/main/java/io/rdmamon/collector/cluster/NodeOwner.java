package io.rdmamon.collector.cluster;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.List;
import java.util.Objects;

/**
 * Which replica holds a node's agent, as the cluster-wide {@link NodeDirectory} records it.
 *
 * @param replica      the holding replica's id
 * @param instance     the agent run's id from its hello: the same run reconnecting elsewhere is a move, another
 *                     run while this one is connected is a name conflict
 * @param remoteHost   the address the agent connects from (a probe's server address)
 * @param capabilities what the agent announced in its hello (probes)
 * @param connected    whether the replica has a live connection of the agent (false: it keeps the node, stale, until
 *                     the node expires or connects elsewhere)
 * @param sinceMillis  when the replica took the node
 */
public record NodeOwner(String replica, String instance, String remoteHost, List<String> capabilities,
                        boolean connected, long sinceMillis) {
    public NodeOwner {
        Objects.requireNonNull(replica, "replica");
        capabilities = List.copyOf(capabilities);
    }

    public NodeOwner disconnected() {
        return new NodeOwner(replica, instance, remoteHost, capabilities, false, sinceMillis);
    }

    public String encode() {
        return new JsonObject().put("replica", replica).put("instance", instance).put("remoteHost", remoteHost)
                .put("capabilities", new JsonArray(capabilities)).put("connected", connected)
                .put("sinceMillis", sinceMillis).encode();
    }

    public static NodeOwner decode(String json) {
        JsonObject o = new JsonObject(json);
        return new NodeOwner(o.getString("replica"), o.getString("instance"), o.getString("remoteHost"),
                o.getJsonArray("capabilities", new JsonArray()).stream().map(String::valueOf).toList(),
                o.getBoolean("connected", false), o.getLong("sinceMillis", 0L));
    }
}
