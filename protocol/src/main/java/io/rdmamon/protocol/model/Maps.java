package io.rdmamon.protocol.model;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/** Immutable copies (or views of immutable maps) that keep the source order (kernel order matters for output). */
final class Maps {
    private Maps() {
    }

    static <K, V> Map<K, V> copyOrdered(Map<K, V> source) {
        if (source == null) {
            return Map.of();
        }
        // a CounterMap cannot change: no copy and no wrapper (the collector builds one per counter group and
        // sample; the agent copies a port with its maps, and a wrapper would be copied again each time)
        return source instanceof CounterMap ? source : Collections.unmodifiableMap(new LinkedHashMap<>(source));
    }
}
