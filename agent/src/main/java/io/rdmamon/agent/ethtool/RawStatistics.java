package io.rdmamon.agent.ethtool;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One read of a netdev's {@code ethtool -S} statistics as the sampler keeps it: the names in the driver's order,
 * each once, and their values (u64 in a long) at the same index. A source that reads the same names as last time
 * may hand back the same {@code names} list, so that whoever resolved rules for those names can tell at once.
 */
public record RawStatistics(List<String> names, long[] values) {
    public RawStatistics {
        if (names.size() != values.length) {
            throw new IllegalArgumentException(names.size() + " names but " + values.length + " values");
        }
    }

    /** The statistics of {@code stats} (name to value, in order; no null value). */
    public static RawStatistics of(Map<String, Long> stats) {
        List<String> names = new ArrayList<>(stats.size());
        long[] values = new long[stats.size()];
        stats.forEach((name, value) -> {
            values[names.size()] = value;
            names.add(name);
        });
        return new RawStatistics(List.copyOf(names), values);
    }

    /** Name to value, in order. */
    public LinkedHashMap<String, Long> toMap() {
        LinkedHashMap<String, Long> map = new LinkedHashMap<>(names.size() * 4 / 3 + 1);
        for (int i = 0; i < values.length; i++) {
            map.put(names.get(i), values[i]);
        }
        return map;
    }
}
