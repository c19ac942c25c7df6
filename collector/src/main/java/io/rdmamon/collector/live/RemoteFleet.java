package io.rdmamon.collector.live;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The overview rows and diagnoses of the other replicas of a cluster, as they publish them on the clustered event
 * bus each tick ({@code cluster.FleetCluster#LIVE_FLEET}): a replica's message carries the rows of its nodes that
 * changed (all of them every few ticks, so that a replica or browser that came late converges), the names it no
 * longer holds, and its diagnoses when they changed. The rows are the JSON the owning replica built, kept as text:
 * this replica forwards them to its browsers without parsing them. Confined to the collector's context.
 */
final class RemoteFleet {
    /** What changed since the last {@link #drain()}. */
    record Changes(Map<String, String> rows, Set<String> removed) {
        boolean isEmpty() {
            return rows.isEmpty() && removed.isEmpty();
        }
    }

    private final String selfId;
    private final Map<String, Map<String, String>> rowsByReplica = new HashMap<>();
    private final Map<String, JsonArray> diagnosesByReplica = new HashMap<>();
    private final Map<String, String> changed = new LinkedHashMap<>();
    private final Set<String> removed = new HashSet<>();
    private long diagnosesVersion;

    RemoteFleet(String selfId) {
        this.selfId = selfId;
    }

    /**
     * One replica's message: {@code {"replica", "full", "rows": [row JSON text…], "removed": [names],
     * "diagnoses": [items]?}}. This replica's own (a publish reaches the publisher too) is ignored; a malformed one
     * throws IllegalArgumentException naming what is wrong, and changes nothing.
     */
    void apply(JsonObject message) {
        String replica = message.getString("replica");
        if (replica == null) {
            throw new IllegalArgumentException("live fleet message without a replica");
        }
        if (replica.equals(selfId)) {
            return;
        }
        List<Map.Entry<String, String>> rows = new ArrayList<>();
        for (Object row : message.getJsonArray("rows", new JsonArray())) {
            String text = (String) row;
            rows.add(Map.entry(new JsonObject(text).getString("node"), text));
        }
        Map<String, String> held = rowsByReplica.computeIfAbsent(replica, r -> new HashMap<>());
        if (message.getBoolean("full", false)) {
            Set<String> gone = new HashSet<>(held.keySet());
            rows.forEach(row -> gone.remove(row.getKey()));
            gone.forEach(name -> forget(held, name));
        }
        for (Object name : message.getJsonArray("removed", new JsonArray())) {
            forget(held, (String) name);
        }
        for (Map.Entry<String, String> row : rows) {
            held.put(row.getKey(), row.getValue());
            changed.put(row.getKey(), row.getValue());
            removed.remove(row.getKey());
        }
        JsonArray diagnoses = message.getJsonArray("diagnoses");
        if (diagnoses != null) {
            diagnosesByReplica.put(replica, diagnoses);
            diagnosesVersion++;
        }
    }

    /** A replica left the cluster: its nodes leave the view unless another replica shows them meanwhile. */
    void replicaLeft(String replica) {
        Map<String, String> held = rowsByReplica.remove(replica);
        if (held != null) {
            held.keySet().forEach(name -> {
                changed.remove(name);
                removed.add(name);
            });
        }
        if (diagnosesByReplica.remove(replica) != null) {
            diagnosesVersion++;
        }
    }

    private void forget(Map<String, String> held, String name) {
        if (held.remove(name) != null) {
            changed.remove(name);
            removed.add(name);
        }
    }

    /** The rows changed and the names removed since the last call; a name shown again by a replica is not removed. */
    Changes drain() {
        Set<String> gone = new HashSet<>(removed);
        gone.removeAll(nodes());
        Changes changes = new Changes(new LinkedHashMap<>(changed), gone);
        changed.clear();
        removed.clear();
        return changes;
    }

    /** Every node another replica shows now. */
    Set<String> nodes() {
        Set<String> names = new HashSet<>();
        rowsByReplica.values().forEach(rows -> names.addAll(rows.keySet()));
        return names;
    }

    /** The other replicas' rows, for a full snapshot, but those of {@code except} (nodes this replica shows). */
    Collection<String> rows(Set<String> except) {
        List<String> all = new ArrayList<>();
        rowsByReplica.values().forEach(rows -> rows.forEach((node, row) -> {
            if (!except.contains(node)) {
                all.add(row);
            }
        }));
        return all;
    }

    /** The other replicas' active diagnoses (items of the {@code diagnoses} event). */
    List<JsonObject> diagnoses() {
        List<JsonObject> all = new ArrayList<>();
        diagnosesByReplica.values().forEach(items -> items.forEach(item -> all.add((JsonObject) item)));
        return all;
    }

    /** Grows whenever the other replicas' diagnoses change. */
    long diagnosesVersion() {
        return diagnosesVersion;
    }
}
