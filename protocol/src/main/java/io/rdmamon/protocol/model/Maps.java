package io.rdmamon.protocol.model;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/** Immutable copies that keep the source order (kernel order matters for output). */
final class Maps {
    private Maps() {
    }

    static <K, V> Map<K, V> copyOrdered(Map<K, V> source) {
        return source == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(source));
    }
}
