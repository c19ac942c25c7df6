package io.rdmamon.collector.probe;

import io.rdmamon.protocol.probe.LatencyResult;

/**
 * How a {@link LatencyProbe} ended, for the one that started it.
 *
 * @param id             the probe's id ({@code pm-…})
 * @param state          {@code done}, {@code failed} or {@code cancelled}
 * @param serverListened the server reported listening (the client was started)
 * @param latency        the round trips of a {@code done} probe; null otherwise
 * @param error          why it failed; null when done
 * @param refused        it failed without perftest failing: an agent refused a side (no exit code: busy port,
 *                       probes disabled, a bad device), an agent was not connected or disconnected, or the collector
 *                       could not start it; false when perftest ran and failed or the probe timed out
 * @param timedOut       it failed because it outlived its timeout with a side still running, not because perftest
 *                       reported a failure: the side's host may have stalled as well as the path
 * @param finishedMillis when it ended
 */
public record SystemProbeEnd(String id, ProbeState state, boolean serverListened, LatencyResult latency, String error,
                             boolean refused, boolean timedOut, long finishedMillis) {
}
