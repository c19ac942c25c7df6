package io.rdmamon.protocol.model;

import java.util.List;
import java.util.Objects;

/**
 * What the kernel log said about the host's NICs since the agent started: cumulative counts per kind, severity and port,
 * and the last few records recognised (docs/metrics.md {@code rdma_kernel_events_total}). Bounded by the agent.
 *
 * @param tableVersion the version of the agent's pattern table that classified the records
 * @param overwritten  records the kernel overwrote before the agent read them (EPIPE), cumulative
 * @param counts       one cumulative count per kind, severity, device and port, sorted
 * @param recent       the last records recognised, oldest first
 */
public record KernelEvents(int tableVersion, long overwritten, List<Count> counts, List<Event> recent) {
    /** The most counts an agent keeps (and a collector takes). */
    public static final int MAX_COUNTS = 256;
    /** The most recent records an agent keeps (and a collector takes). */
    public static final int MAX_RECENT = 32;
    /** The longest record text kept. */
    public static final int MAX_TEXT_CHARS = 1024;

    public KernelEvents {
        counts = List.copyOf(counts);
        recent = List.copyOf(recent);
    }

    /**
     * Records of one kind on one port since the agent started.
     *
     * @param device the RDMA device; empty when the record names none the host has
     * @param port   the port number; empty when the record names no single port
     */
    public record Count(String kind, String severity, String device, String port, long total) {
        public Count {
            Objects.requireNonNull(kind, "kind");
            Objects.requireNonNull(severity, "severity");
            Objects.requireNonNull(device, "device");
            Objects.requireNonNull(port, "port");
        }
    }

    /**
     * One recognised record.
     *
     * @param seq             the kernel's sequence number of the record
     * @param timestampMillis when the agent read it (within one sampling interval of when it was logged)
     * @param bootMicros      the kernel's own timestamp: microseconds since boot
     * @param level           the syslog level, 0 emergency … 7 debug
     * @param device          as in {@link Count}
     * @param port            as in {@link Count}
     * @param text            the kernel's line, as logged
     */
    public record Event(long seq, long timestampMillis, long bootMicros, int level, String kind, String severity,
                        String device, String port, String text) {
        public Event {
            Objects.requireNonNull(kind, "kind");
            Objects.requireNonNull(severity, "severity");
            Objects.requireNonNull(device, "device");
            Objects.requireNonNull(port, "port");
            Objects.requireNonNull(text, "text");
        }
    }
}
