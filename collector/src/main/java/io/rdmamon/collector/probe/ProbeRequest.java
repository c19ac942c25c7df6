package io.rdmamon.collector.probe;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import io.rdmamon.protocol.json.StrictJson;
import io.rdmamon.protocol.json.StrictJsonException;
import io.rdmamon.protocol.model.Names;
import io.rdmamon.protocol.probe.PerftestSpec;

import java.io.IOException;
import java.util.Set;

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

    /** Parses and bounds-checks {@code body}, the request's bytes; {@code maxDurationSeconds} is the configured limit. */
    public static ProbeRequest parse(byte[] body, int maxDurationSeconds) {
        JsonNode json;
        try {
            json = body.length == 0 ? null : StrictJson.mapper().readTree(body);
        } catch (JsonProcessingException e) {
            throw invalid("body: not a JSON object: " + firstLine(e.getOriginalMessage()));
        } catch (IOException e) {
            throw invalid("body: not a JSON object: " + firstLine(e.getMessage()));
        }
        if (json == null || json.isNull()) {
            throw invalid("body: a JSON object is required");
        }
        if (!json.isObject()) {
            throw invalid("body: not a JSON object: got " + StrictJson.typeOf(json));
        }
        try {
            return parse(StrictJson.of(json, "").requireKnownKeys(FIELDS), maxDurationSeconds);
        } catch (StrictJsonException e) {
            throw invalid(e.getMessage());
        }
    }

    private static ProbeRequest parse(StrictJson body, int maxDurationSeconds) {
        Endpoint source = endpoint(body.object("source"));
        Endpoint destination = endpoint(body.object("destination"));
        if (source.equals(destination)) {
            throw invalid("destination: is the same port as the source (" + source + ")");
        }
        long size = bounded(body, "sizeBytes", DEFAULT_SIZE_BYTES, PerftestSpec.MIN_SIZE_BYTES, PerftestSpec.MAX_SIZE_BYTES);
        int duration = (int) bounded(body, "durationSeconds", (long) DEFAULT_DURATION_SECONDS, 1, Integer.MAX_VALUE);
        if (duration > maxDurationSeconds) {
            throw invalid("durationSeconds: " + duration + " is over the maximum of " + maxDurationSeconds + " s");
        }
        int qps = (int) bounded(body, "qps", (long) DEFAULT_QPS, 1, PerftestSpec.MAX_QPS);
        Integer gid = body.has("gidIndex") ? (int) bounded(body, "gidIndex", null, 0, PerftestSpec.MAX_GID_INDEX) : null;
        return new ProbeRequest(source, destination, size, duration, qps, gid, body.bool("bidirectional", false));
    }

    /** The perftest options of one side (its own device and port, the shared test parameters). */
    public PerftestSpec spec(Endpoint side) {
        return new PerftestSpec(side.device(), side.port(), gidIndex, sizeBytes, durationSeconds, qps, bidirectional);
    }

    private static Endpoint endpoint(StrictJson endpoint) {
        endpoint.requireKnownKeys(ENDPOINT_FIELDS);
        String node = endpoint.string("node");
        if (!Names.isNodeName(node)) {
            throw invalid(endpoint.path("node") + ": must be a node name (" + Names.nodeNameRule() + ")");
        }
        String device = endpoint.string("device");
        if (!PerftestSpec.DEVICE_NAME.matcher(device).matches()) {
            throw invalid(endpoint.path("device") + ": must be an RDMA device name");
        }
        return new Endpoint(node, device, (int) bounded(endpoint, "port", null, 1, 255));
    }

    /** {@code key}'s integer, {@code fallback} when not given (null: required); {@code PATH: N is outside MIN..MAX} beyond the bounds. */
    private static long bounded(StrictJson json, String key, Long fallback, long min, long max) {
        if (fallback != null && !json.has(key)) {
            return fallback;
        }
        long number = json.longValue(key);
        if (number < min || number > max) {
            throw invalid(json.path(key) + ": " + number + " is outside " + min + ".." + max);
        }
        return number;
    }

    private static String firstLine(String text) {
        return text == null ? "" : text.lines().findFirst().orElse("");
    }

    private static ProbeRefused invalid(String message) {
        return new ProbeRefused(400, message);
    }
}
