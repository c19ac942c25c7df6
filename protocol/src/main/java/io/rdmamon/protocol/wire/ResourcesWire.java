package io.rdmamon.protocol.wire;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.rdmamon.protocol.json.StrictJson;
import io.rdmamon.protocol.model.PortWorkload;
import io.rdmamon.protocol.model.QueuePair;
import io.rdmamon.protocol.model.RdmaResources;

/**
 * A device layout's optional {@code resources} (protocol 3): {@code {"summary": {"pd": 1, "qp": 2, ...},
 * "qps": [{"lqpn": 17, "rqpn": 18, "port": 1, "type": "RC", "state": "RTS", "pid": 4321}, ...], "qpsDropped": 0,
 * "workloads": [{"port": 1, "namespace": "ml", "pod": "train-0", "comm": "python3", "attribution": "process", "qps": 12},
 * ...]}}. A QP's absent fields ({@code rqpn}, {@code port}, {@code pid}, {@code kernName}) and a workload's
 * ({@code namespace}, {@code pod}, {@code container}, {@code comm}, {@code reason}) are left out; {@code workloads} is
 * optional (an agent before it sends none, read as empty) and bounded per port ({@link PortWorkload#MAX_ROWS_PER_PORT}). Bounded: at most
 * {@link RdmaResources#MAX_QPS} QPs and {@link #MAX_RESOURCE_TYPES} summary entries; counts are non-negative longs
 * (the kernel's u64 counts objects in memory, far below 2^63), QP numbers and pids unsigned 32-bit as the kernel's.
 */
final class ResourcesWire {
    /** The kernel has nine resource types today (pd, cq, qp, cm_id, mr, ctx, srq, ...); room for growth. */
    static final int MAX_RESOURCE_TYPES = 32;
    private static final long U32_MAX = 0xffff_ffffL;
    /** Workload rows a device carries at most: a full set of rows on each of 16 ports. */
    static final int MAX_WORKLOADS = 16 * PortWorkload.MAX_ROWS_PER_PORT;

    private ResourcesWire() {
    }

    static ObjectNode encode(RdmaResources resources) {
        ObjectNode json = FrameCodec.MAPPER.createObjectNode();
        ObjectNode summary = json.putObject("summary");
        resources.summary().forEach(summary::put);
        ArrayNode qps = json.putArray("qps");
        for (QueuePair qp : resources.qps()) {
            ObjectNode entry = qps.addObject().put("lqpn", qp.lqpn());
            if (qp.rqpn() != null) {
                entry.put("rqpn", qp.rqpn());
            }
            if (qp.port() != null) {
                entry.put("port", qp.port());
            }
            entry.put("type", qp.type()).put("state", qp.state());
            if (qp.pid() != null) {
                entry.put("pid", qp.pid());
            }
            if (qp.kernName() != null) {
                entry.put("kernName", qp.kernName());
            }
        }
        json.put("qpsDropped", resources.qpsDropped());
        if (!resources.workloads().isEmpty()) {
            ArrayNode workloads = json.putArray("workloads");
            for (PortWorkload w : resources.workloads()) {
                ObjectNode entry = workloads.addObject().put("port", w.port());
                putIfPresent(entry, "namespace", w.namespace());
                putIfPresent(entry, "pod", w.pod());
                putIfPresent(entry, "container", w.container());
                putIfPresent(entry, "comm", w.comm());
                entry.put("attribution", w.attribution());
                putIfPresent(entry, "reason", w.reason());
                entry.put("qps", w.qps());
            }
        }
        return json;
    }

    /** The device's {@code resources}; the caller passes it only when present. */
    static RdmaResources decode(StrictJson json) throws FrameException {
        StrictJson summaryJson = json.object("summary");
        List<String> types = summaryJson.keys();
        if (types.size() > MAX_RESOURCE_TYPES) {
            throw new FrameException(summaryJson.path() + " lists " + types.size() + " resource types; at most "
                    + MAX_RESOURCE_TYPES);
        }
        Map<String, Long> summary = new LinkedHashMap<>();
        for (String type : types) {
            long count = summaryJson.longValue(type);
            if (count < 0) {
                throw new FrameException(summaryJson.path(type) + ": " + count + " is negative");
            }
            summary.put(type, count);
        }
        List<StrictJson> entries = json.objects("qps");
        if (entries.size() > RdmaResources.MAX_QPS) {
            throw new FrameException(json.path("qps") + " lists " + entries.size() + " QPs; at most "
                    + RdmaResources.MAX_QPS + " (the rest go in qpsDropped)");
        }
        List<QueuePair> qps = new ArrayList<>(entries.size());
        for (StrictJson q : entries) {
            qps.add(new QueuePair(u32(q, "lqpn"), q.has("rqpn") ? u32(q, "rqpn") : null,
                    q.has("port") ? (int) u32(q, "port") : null, q.string("type"), q.string("state"),
                    q.has("pid") ? u32(q, "pid") : null, q.optString("kernName")));
        }
        int dropped = json.integer("qpsDropped");
        if (dropped < 0) {
            throw new FrameException(json.path("qpsDropped") + ": " + dropped + " is negative");
        }
        List<PortWorkload> workloads = json.has("workloads") ? workloads(json) : List.of();
        try {
            return new RdmaResources(summary, qps, dropped, workloads);
        } catch (IllegalArgumentException e) {
            // the counts and the QP bound are checked above: what is left is a port with too many workload rows
            throw new FrameException(json.path("workloads") + ": " + e.getMessage());
        }
    }

    private static List<PortWorkload> workloads(StrictJson json) throws FrameException {
        List<StrictJson> entries = json.objects("workloads");
        // bounded before the rows are read; the per-port bound is the model's, checked when the resources are built
        if (entries.size() > MAX_WORKLOADS) {
            throw new FrameException(json.path("workloads") + " lists " + entries.size() + " workloads; at most "
                    + MAX_WORKLOADS);
        }
        List<PortWorkload> workloads = new ArrayList<>(entries.size());
        for (StrictJson w : entries) {
            String attribution = w.string("attribution");
            if (!PortWorkload.ATTRIBUTIONS.contains(attribution)) {
                throw new FrameException(w.path("attribution") + ": \"" + attribution + "\" is none of device, process, none");
            }
            int qps = w.integer("qps");
            if (qps < 1) {
                throw new FrameException(w.path("qps") + ": " + qps + " is below 1");
            }
            workloads.add(new PortWorkload((int) u32(w, "port"), w.optString("namespace"), w.optString("pod"),
                    w.optString("container"), w.optString("comm"), attribution, w.optString("reason"), qps));
        }
        return workloads;
    }

    private static void putIfPresent(ObjectNode json, String key, String value) {
        if (value != null) {
            json.put(key, value);
        }
    }

    private static long u32(StrictJson json, String key) throws FrameException {
        long value = json.longValue(key);
        if (value < 0 || value > U32_MAX) {
            throw new FrameException(json.path(key) + ": " + value + " is outside 0.." + U32_MAX);
        }
        return value;
    }
}
