package io.rdmamon.lab;

import java.util.Map;
import java.util.TreeMap;

import io.vertx.core.json.JsonObject;

/** {@code rdma -j statistic show link DEV/PORT}: one object per port, its counters beside {@code ifname} and {@code port}. */
final class RdmaStatistic {
    private RdmaStatistic() {
    }

    /** Every counter of the port object by name. */
    static Map<String, Long> counters(JsonObject port) {
        Map<String, Long> counters = new TreeMap<>();
        port.forEach(e -> {
            if (!e.getKey().equals("ifname") && !e.getKey().equals("port")) {
                counters.put(e.getKey(), ((Number) e.getValue()).longValue());
            }
        });
        return counters;
    }

    /** The counters that moved between two reads of one port, by how much. */
    static Map<String, Long> delta(JsonObject before, JsonObject after) {
        Map<String, Long> start = counters(before);
        Map<String, Long> moved = new TreeMap<>();
        counters(after).forEach((name, value) -> {
            long delta = value - start.getOrDefault(name, 0L);
            if (delta != 0) {
                moved.put(name, delta);
            }
        });
        return moved;
    }
}
