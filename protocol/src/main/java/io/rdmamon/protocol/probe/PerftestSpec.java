package io.rdmamon.protocol.probe;

import io.rdmamon.protocol.wire.FrameException;

import java.util.Objects;
import java.util.regex.Pattern;

/**
 * The options of one perftest run on one side of a probe. perftest wants "the same options on
 * both server and client" (its README), so the collector sends each side the spec of its own port
 * and the shared test parameters.
 *
 * @param device          RDMA device on this host ({@code -d}), e.g. {@code mlx5_0}
 * @param port            HCA port ({@code -i}), 1-based
 * @param gidIndex        GID index ({@code -x}); null lets perftest pick (best RoCE v2 IPv4 GID) or, on
 *                        InfiniBand, use no GRH
 * @param sizeBytes       message size ({@code -s})
 * @param durationSeconds test duration ({@code -D})
 * @param qps             number of queue pairs ({@code -q})
 * @param bidirectional   both directions at once ({@code -b})
 */
public record PerftestSpec(String device, int port, Integer gidIndex, long sizeBytes, int durationSeconds, int qps,
                           boolean bidirectional) {
    /** Device names as the kernel allows them in {@code /sys/class/infiniband} (no path separators, no dots first). */
    public static final Pattern DEVICE_NAME = Pattern.compile("[A-Za-z0-9_][A-Za-z0-9_.-]{0,63}");
    public static final long MIN_SIZE_BYTES = 2;
    /** perftest's own upper bound for {@code -s} with {@code -a} is 2^23; larger messages are refused by us too. */
    public static final long MAX_SIZE_BYTES = 1L << 23;
    public static final int MAX_QPS = 64;
    public static final int MAX_GID_INDEX = 65_535;

    public PerftestSpec {
        Objects.requireNonNull(device, "device");
        if (!DEVICE_NAME.matcher(device).matches()) {
            throw new IllegalArgumentException("device name " + FrameException.quote(device) + " is not a valid RDMA device name");
        }
        if (port < 1 || port > 255) {
            throw new IllegalArgumentException("port " + port + " is outside 1..255");
        }
        if (gidIndex != null && (gidIndex < 0 || gidIndex > MAX_GID_INDEX)) {
            throw new IllegalArgumentException("gidIndex " + gidIndex + " is outside 0.." + MAX_GID_INDEX);
        }
        if (sizeBytes < MIN_SIZE_BYTES || sizeBytes > MAX_SIZE_BYTES) {
            throw new IllegalArgumentException("sizeBytes " + sizeBytes + " is outside " + MIN_SIZE_BYTES + ".." + MAX_SIZE_BYTES);
        }
        if (durationSeconds < 1) {
            throw new IllegalArgumentException("durationSeconds " + durationSeconds + " must be at least 1");
        }
        if (qps < 1 || qps > MAX_QPS) {
            throw new IllegalArgumentException("qps " + qps + " is outside 1.." + MAX_QPS);
        }
    }
}
