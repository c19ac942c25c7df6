package io.rdmamon.collector.probe;

import io.rdmamon.protocol.model.Names;
import io.rdmamon.protocol.probe.PerftestSpec;
import io.vertx.core.json.JsonObject;

import java.util.Set;
import java.util.TreeSet;

/**
 * A validated {@code POST /api/probes} body. Every error is a 400 naming the field at fault.
 *
 * @param source          the port generating traffic (perftest client)
 * @param destination     the port receiving it (perftest server)
 * @param sizeBytes       message size, default 65536
 * @param durationSeconds test duration, default 5; at most the configured maximum
 * @param qps             queue pairs, default 1
 * @param gidIndex        GID index for both sides; null = the first RoCE v2 GID with an IPv4 address
 * @param bidirectional   traffic both ways at once
 */
public record ProbeRequest(Endpoint source, Endpoint destination, long sizeBytes, int durationSeconds, int qps,
                           Integer gidIndex, boolean bidirectional) {
    public static final long DEFAULT_SIZE_BYTES = 65_536;
    public static final int DEFAULT_DURATION_SECONDS = 5;
    public static final int DEFAULT_QPS = 1;
    private static final Set<String> FIELDS = Set.of("source", "destination", "sizeBytes", "durationSeconds", "qps",
            "gidIndex", "bidirectional");
    private static final Set<String> ENDPOINT_FIELDS = Set.of("node", "device", "port");

    /** Parses and bounds-checks {@code body}; {@code maxDurationSeconds} is the configured limit. */
    public static ProbeRequest parse(JsonObject body, int maxDurationSeconds) {
        unknownFields(body, FIELDS, "");
        Endpoint source = endpoint(body, "source");
        Endpoint destination = endpoint(body, "destination");
        if (source.equals(destination)) {
            throw invalid("destination: is the same port as the source (" + source + ")");
        }
        long size = integer(body, "sizeBytes", DEFAULT_SIZE_BYTES, PerftestSpec.MIN_SIZE_BYTES, PerftestSpec.MAX_SIZE_BYTES);
        int duration = (int) integer(body, "durationSeconds", DEFAULT_DURATION_SECONDS, 1, Integer.MAX_VALUE);
        if (duration > maxDurationSeconds) {
            throw invalid("durationSeconds: " + duration + " is over the maximum of " + maxDurationSeconds + " s");
        }
        int qps = (int) integer(body, "qps", DEFAULT_QPS, 1, PerftestSpec.MAX_QPS);
        Integer gid = body.getValue("gidIndex") == null ? null
                : (int) integer(body, "gidIndex", 0, 0, PerftestSpec.MAX_GID_INDEX);
        Object bidi = body.getValue("bidirectional");
        if (bidi != null && !(bidi instanceof Boolean)) {
            throw invalid("bidirectional: must be true or false");
        }
        return new ProbeRequest(source, destination, size, duration, qps, gid, Boolean.TRUE.equals(bidi));
    }

    /** The perftest options of one side (its own device and port, the shared test parameters). */
    public PerftestSpec spec(Endpoint side) {
        return new PerftestSpec(side.device(), side.port(), gidIndex, sizeBytes, durationSeconds, qps, bidirectional);
    }

    private static Endpoint endpoint(JsonObject body, String field) {
        Object value = body.getValue(field);
        if (!(value instanceof JsonObject object)) {
            throw invalid(field + ": must be an object {node, device, port}");
        }
        unknownFields(object, ENDPOINT_FIELDS, field + ".");
        Object node = object.getValue("node");
        if (!(node instanceof String name) || !Names.isNodeName(name)) {
            throw invalid(field + ".node: must be a node name (" + Names.nodeNameRule() + ")");
        }
        Object device = object.getValue("device");
        if (!(device instanceof String dev) || !PerftestSpec.DEVICE_NAME.matcher(dev).matches()) {
            throw invalid(field + ".device: must be an RDMA device name");
        }
        if (object.getValue("port") == null) {
            throw invalid(field + ".port: is required");
        }
        int port = (int) integer(object, "port", 0, 1, 255, field + ".port");
        return new Endpoint(name, dev, port);
    }

    private static long integer(JsonObject body, String field, long fallback, long min, long max) {
        return integer(body, field, fallback, min, max, field);
    }

    private static long integer(JsonObject body, String field, long fallback, long min, long max, String name) {
        Object value = body.getValue(field);
        if (value == null) {
            return fallback;
        }
        if (!(value instanceof Integer || value instanceof Long)) {
            throw invalid(name + ": must be an integer");
        }
        long number = ((Number) value).longValue();
        if (number < min || number > max) {
            throw invalid(name + ": " + number + " is outside " + min + ".." + max);
        }
        return number;
    }

    private static void unknownFields(JsonObject object, Set<String> known, String prefix) {
        for (String key : object.fieldNames()) {
            if (!known.contains(key)) {
                throw invalid(prefix + key + ": unknown field (known: " + new TreeSet<>(known) + ")");
            }
        }
    }

    private static ProbeRefused invalid(String message) {
        return new ProbeRefused(400, message);
    }
}
