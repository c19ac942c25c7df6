package io.rdmamon.nativeio.rdma;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One device's {@code RDMA_NLDEV_CMD_RES_GET} summary, what {@code rdma resource show} prints: the current count of
 * each resource type ({@code pd}, {@code cq}, {@code qp}, {@code cm_id}, {@code mr}, {@code ctx}, {@code srq}, ...)
 * in kernel order. Counts are u64 in a long with unsigned semantics, as the code base keeps every u64 counter.
 */
public record ResourceSummary(long deviceIndex, String device, Map<String, Long> counts) {
    public ResourceSummary {
        counts = Collections.unmodifiableMap(new LinkedHashMap<>(counts));
    }
}
