package io.rdmamon.collector.probe;

import io.rdmamon.protocol.probe.PerftestSpec;

import java.time.Duration;

/**
 * A latency probe the collector itself starts (the pingmesh): {@code ib_send_lat} between two ports, bounded as a
 * whole by {@code timeout}. Unlike an operator's {@link ProbeRequest} it is exempt from the cooldown, the concurrency
 * limit and the audit trail, and it is not listed or exported as a probe (docs/pingmesh.md "Probes").
 *
 * @param source       the client's port
 * @param destination  the server's port
 * @param sizeBytes    message size
 * @param iterations   round trips ({@code -n})
 * @param qpTimeout    the QP's local ACK timeout exponent ({@code -u}); null for perftest's default
 * @param trafficClass the GRH traffic class ({@code --tclass}); null for the device's default
 * @param timeout      server listening and client run, together, within this
 */
public record LatencyProbe(Endpoint source, Endpoint destination, long sizeBytes, int iterations, Integer qpTimeout,
                           Integer trafficClass, Duration timeout) {
    /** The spec of one side, with that side's GID index. */
    PerftestSpec spec(Endpoint side, Integer gidIndex) {
        return PerftestSpec.latency(side.device(), side.port(), gidIndex, sizeBytes, iterations, maxSeconds(),
                qpTimeout, trafficClass);
    }

    /** The timeout in whole seconds, at least 1: the spec's {@code durationSeconds} (the longest a run may take). */
    int maxSeconds() {
        return (int) Math.max(1, (timeout.toMillis() + 999) / 1000);
    }

    /** What the probe's record shows: the endpoints, the size and the timeout as its duration. */
    ProbeRequest asRequest() {
        return new ProbeRequest(source, destination, sizeBytes, maxSeconds(), 1, null, false);
    }
}
