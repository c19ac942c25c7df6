package io.rdmamon.collector.pingmesh;

import io.rdmamon.collector.live.PortKey;

/**
 * One ordered pair's probes over the results window (placeholder with the agreed shape; the verdict helper's copy
 * replaces it at merge).
 */
public record PairStats(PortKey src, PortKey dst, String srcGroup, String dstGroup, long sent, long lost,
                        double p50Seconds, double p99Seconds, int probes, int failedProbes) {
}
