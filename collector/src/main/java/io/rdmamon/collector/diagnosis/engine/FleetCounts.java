package io.rdmamon.collector.diagnosis.engine;

import io.rdmamon.collector.model.QosProfile;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * A replica's fleet-baseline counts as they travel between the replicas of a cluster (docs/architecture.md "Cluster":
 * the majority
 * rates and the QoS fleet profile are computed over the whole cluster): how many active ports of each HCA model run
 * at each rate ({@link FleetRates}), and how many RoCE ports run each {@link QosProfile} ({@link QosFleet}).
 * Counts, not ports: a message stays small however large the replica's share of the fleet. Decoding is bounded and
 * strict: a malformed message is refused whole, naming what is wrong.
 */
public record FleetCounts(Map<FleetRates.Model, Map<Long, Integer>> rates, Map<QosProfile, Integer> qos) {
    /** More distinct entries than any real fleet has (models × rates, QoS profiles). */
    static final int MAX_ENTRIES = 4096;

    public JsonObject toJson() {
        JsonArray rateItems = new JsonArray();
        rates.forEach((model, byRate) -> byRate.forEach((rate, ports) -> rateItems.add(new JsonObject()
                .put("hcaType", model.hcaType()).put("linkLayer", model.linkLayer()).put("rate", rate).put("ports", ports))));
        JsonArray qosItems = new JsonArray();
        qos.forEach((p, ports) -> qosItems.add(new JsonObject().put("trust", p.trust())
                .put("pfc", p.pfc() == null ? null : new JsonArray(new ArrayList<>(p.pfc())))
                .put("roceDscp", p.roceDscp()).put("roceDscpPriority", p.roceDscpPriority())
                .put("losslessTc", p.losslessTc() == null ? null : new JsonArray(new ArrayList<>(p.losslessTc())))
                .put("ecnOnLossless", p.ecnOnLossless()).put("ports", ports)));
        return new JsonObject().put("rates", rateItems).put("qos", qosItems);
    }

    /** @throws IllegalArgumentException naming the field at fault */
    public static FleetCounts fromJson(JsonObject json) {
        try {
            JsonArray rateItems = json.getJsonArray("rates", new JsonArray());
            JsonArray qosItems = json.getJsonArray("qos", new JsonArray());
            if (rateItems.size() > MAX_ENTRIES || qosItems.size() > MAX_ENTRIES) {
                throw new IllegalArgumentException("more than " + MAX_ENTRIES + " entries");
            }
            Map<FleetRates.Model, Map<Long, Integer>> rates = new HashMap<>();
            for (int i = 0; i < rateItems.size(); i++) {
                JsonObject item = rateItems.getJsonObject(i);
                FleetRates.Model model = new FleetRates.Model(item.getString("hcaType"), item.getString("linkLayer"));
                rates.computeIfAbsent(model, m -> new HashMap<>()).merge(required(item.getLong("rate"), "rates[" + i + "].rate"),
                        ports(item, "rates[" + i + "]"), Integer::sum);
            }
            Map<QosProfile, Integer> qos = new HashMap<>();
            for (int i = 0; i < qosItems.size(); i++) {
                JsonObject item = qosItems.getJsonObject(i);
                SortedSet<Integer> pfc = item.getJsonArray("pfc") == null ? null : new TreeSet<>(integers(item.getJsonArray("pfc")));
                List<Integer> tcs = item.getJsonArray("losslessTc") == null ? null : integers(item.getJsonArray("losslessTc"));
                QosProfile profile = new QosProfile(required(item.getString("trust"), "qos[" + i + "].trust"), pfc,
                        item.getInteger("roceDscp"), item.getInteger("roceDscpPriority"), tcs, item.getBoolean("ecnOnLossless"));
                qos.merge(profile, ports(item, "qos[" + i + "]"), Integer::sum);
            }
            return new FleetCounts(rates, qos);
        } catch (ClassCastException | NullPointerException e) {
            throw new IllegalArgumentException("fleet counts: a field of the wrong type: " + e.getMessage(), e);
        }
    }

    private static int ports(JsonObject item, String where) {
        int ports = required(item.getInteger("ports"), where + ".ports");
        if (ports < 1) {
            throw new IllegalArgumentException(where + ".ports must be positive, got " + ports);
        }
        return ports;
    }

    private static <T> T required(T value, String where) {
        if (value == null) {
            throw new IllegalArgumentException(where + " is missing");
        }
        return value;
    }

    private static List<Integer> integers(JsonArray array) {
        List<Integer> list = new ArrayList<>();
        for (int i = 0; i < array.size(); i++) {
            list.add(array.getInteger(i));
        }
        return list;
    }
}
