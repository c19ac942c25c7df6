package io.rdmamon.collector.pingmesh;

/**
 * One probe of a pair as the results keep it.
 *
 * @param timestampMillis when it ended
 * @param sent            round trips it sent: those measured, or all its iterations when it was unreachable; 0 when
 *                        skipped
 * @param lost            round trips lost: those that waited for a retransmission, or all when it was unreachable
 * @param p50Seconds      median round trip; NaN when none was measured
 * @param p99Seconds      99th percentile round trip; NaN when none was measured
 * @param failed          the probe failed after its server listened: the client never got through (unreachable)
 * @param timedOut        of a failed probe: it outlived its timeout (no side reported the failure)
 * @param skipped         the probe did not run for a reason that is not the network (an agent refused it, a port was
 *                        busy); it counts in no statistic
 * @param error           why it failed or was skipped; null otherwise
 * @param rttNanos        its round trips, sorted, while it is inside the window (the window's quantiles merge them);
 *                        null once it is older
 */
record ProbePoint(long timestampMillis, int sent, int lost, double p50Seconds, double p99Seconds, boolean failed,
                  boolean timedOut, boolean skipped, String error, int[] rttNanos) {
    ProbePoint withoutRoundTrips() {
        return rttNanos == null ? this : new ProbePoint(timestampMillis, sent, lost, p50Seconds, p99Seconds, failed,
                timedOut, skipped, error, null);
    }
}
