package io.rdmamon.collector.pingmesh;

import io.rdmamon.collector.model.PortKey;

import java.util.Objects;

/**
 * What the pingmesh measured between one ordered pair of ports over its window (the last minute): the input of
 * {@link PathLocalizer}. A probe is one latency run from {@code src} to {@code dst}; each run sends a number of
 * round trips, so a pair has {@code probes} runs and {@code sent} round trips.
 *
 * @param src          the port that started the probes
 * @param dst          the port that answered them
 * @param srcGroup     {@code src}'s group (its ToR from LLDP, else configured, else {@code fleet})
 * @param dstGroup     {@code dst}'s group
 * @param sent         round trips sent in the window
 * @param lost         round trips of them lost: those that waited out a retransmission (RC hides a lost packet behind
 *                     its local ACK timeout, as TCP's SYN retransmission did for Pingmesh), and every round trip of a
 *                     probe that failed (counted as sent too)
 * @param p50Seconds   median round-trip time of the answered ones; NaN when none was answered
 * @param p99Seconds   99th percentile of the same; NaN when none was answered
 * @param probes       probe runs in the window
 * @param failedProbes runs of them that got no answer at all (timeout, no connection)
 * @param timedOutProbes     failed runs that outlived their timeout rather than perftest reporting the failure: the
 *                           path, or a host that stalled
 * @param timedOutRoundTrips the round trips those count as sent and lost
 */
public record PairStats(PortKey src, PortKey dst, String srcGroup, String dstGroup, long sent, long lost,
                        double p50Seconds, double p99Seconds, int probes, int failedProbes, int timedOutProbes,
                        long timedOutRoundTrips) {
    public PairStats {
        Objects.requireNonNull(src, "src");
        Objects.requireNonNull(dst, "dst");
        Objects.requireNonNull(srcGroup, "srcGroup");
        Objects.requireNonNull(dstGroup, "dstGroup");
        if (src.equals(dst)) {
            throw new IllegalArgumentException("pair " + src + " → " + dst + ": a port does not probe itself");
        }
        if (lost < 0 || lost > sent) {
            throw new IllegalArgumentException("pair " + src + " → " + dst + ": lost " + lost + " of " + sent + " sent");
        }
        if (failedProbes < 0 || failedProbes > probes) {
            throw new IllegalArgumentException("pair " + src + " → " + dst + ": " + failedProbes + " of " + probes
                    + " probes failed");
        }
        if (timedOutProbes < 0 || timedOutProbes > failedProbes || timedOutRoundTrips < 0 || timedOutRoundTrips > lost) {
            throw new IllegalArgumentException("pair " + src + " → " + dst + ": " + timedOutProbes + " of "
                    + failedProbes + " failed probes timed out, " + timedOutRoundTrips + " of " + lost + " lost");
        }
    }

    /** A window without timed-out probes. */
    public PairStats(PortKey src, PortKey dst, String srcGroup, String dstGroup, long sent, long lost,
                     double p50Seconds, double p99Seconds, int probes, int failedProbes) {
        this(src, dst, srcGroup, dstGroup, sent, lost, p50Seconds, p99Seconds, probes, failedProbes, 0, 0);
    }
}
