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
        // a CounterMap cannot change: no copy needed (the collector builds one per counter group and sample)
        return Collections.unmodifiableMap(source instanceof CounterMap ? source : new LinkedHashMap<>(source));
    }
}
