package io.rdmamon.protocol.probe;

import io.rdmamon.protocol.text.WireText;

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
 * @param test            the perftest program: {@code ib_write_bw} for bandwidth probes, {@code ib_send_lat} for
 *                        the pingmesh's latency probes
 * @param iterations      latency tests: exchanges ({@code -n}, {@link LatencyResult#MIN_ITERATIONS} to
 *                        {@link LatencyResult#MAX_ITERATIONS}); 0 for bandwidth tests, which run {@code -D}
 *                        seconds. A latency test's {@code durationSeconds} is the longest it may take, not an option
 * @param qpTimeout       the QP's local ACK timeout exponent ({@code -u}: 4.096 µs × 2^u before a retransmission);
 *                        null for perftest's default 14 (67 ms)
 * @param trafficClass    the GRH traffic class ({@code --tclass}, the DSCP shifted left by two), so that probes ride
 *                        the lossless class; null for the device's default
 */
public record PerftestSpec(String device, int port, Integer gidIndex, long sizeBytes, int durationSeconds, int qps,
                           boolean bidirectional, PerftestTest test, int iterations, Integer qpTimeout,
                           Integer trafficClass) {
    /** Device names as the kernel allows them in {@code /sys/class/infiniband} (no path separators, no dots first). */
    public static final Pattern DEVICE_NAME = Pattern.compile("[A-Za-z0-9_][A-Za-z0-9_.-]{0,63}");
    public static final long MIN_SIZE_BYTES = 2;
    /** perftest's own upper bound for {@code -s} with {@code -a} is 2^23; larger messages are refused by us too. */
    public static final long MAX_SIZE_BYTES = 1L << 23;
    public static final int MAX_QPS = 64;
    public static final int MAX_GID_INDEX = 65_535;

    public PerftestSpec {
        Objects.requireNonNull(device, "device");
        Objects.requireNonNull(test, "test");
        if (test.latency() ? iterations < LatencyResult.MIN_ITERATIONS || iterations > LatencyResult.MAX_ITERATIONS
                : iterations != 0) {
            throw new IllegalArgumentException(test.latency()
                    ? "iterations " + iterations + " is outside " + LatencyResult.MIN_ITERATIONS + ".."
                    + LatencyResult.MAX_ITERATIONS
                    : "iterations apply to latency tests only, not " + test.wireName());
        }
        if (qpTimeout != null && (qpTimeout < 0 || qpTimeout > 31)) {
            throw new IllegalArgumentException("qpTimeout " + qpTimeout + " is outside 0..31");
        }
        if (trafficClass != null && (trafficClass < 0 || trafficClass > 255)) {
            throw new IllegalArgumentException("trafficClass " + trafficClass + " is outside 0..255");
        }
        if (!DEVICE_NAME.matcher(device).matches()) {
            throw new IllegalArgumentException("device name " + WireText.quote(device) + " is not a valid RDMA device name");
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

    /** A bandwidth probe's spec ({@code ib_write_bw}), perftest's QP timeout and the device's traffic class. */
    public PerftestSpec(String device, int port, Integer gidIndex, long sizeBytes, int durationSeconds, int qps,
                        boolean bidirectional) {
        this(device, port, gidIndex, sizeBytes, durationSeconds, qps, bidirectional, PerftestTest.WRITE_BW, 0, null,
                null);
    }

    /** A latency probe's spec: {@code ib_send_lat}, one QP, {@code iterations} exchanges, at most {@code maxSeconds}. */
    public static PerftestSpec latency(String device, int port, Integer gidIndex, long sizeBytes, int iterations,
                                       int maxSeconds, Integer qpTimeout, Integer trafficClass) {
        return new PerftestSpec(device, port, gidIndex, sizeBytes, maxSeconds, 1, false, PerftestTest.SEND_LAT,
                iterations, qpTimeout, trafficClass);
    }
}
