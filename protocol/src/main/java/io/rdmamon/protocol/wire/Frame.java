package io.rdmamon.protocol.wire;

import io.rdmamon.protocol.model.NicHealthReporter;
import io.rdmamon.protocol.model.SourceStatus;
import io.rdmamon.protocol.probe.LatencyResult;
import io.rdmamon.protocol.probe.PerftestResult;
import io.rdmamon.protocol.probe.PerftestSpec;
import io.rdmamon.protocol.probe.ProbePhase;
import io.rdmamon.protocol.probe.ProbeRole;
import io.rdmamon.protocol.text.WireText;

import java.util.BitSet;
import java.util.List;
import java.util.Objects;

/**
 * One message of the agent stream (one WebSocket binary message carrying UTF-8 JSON).
 *
 * <p>Agent → collector: {@link Hello} once per connection (identity and the first layout),
 * {@link LayoutChange} whenever the structure of the host changes, {@link Values} per sample
 * (numbers only, in layout order), {@link Heartbeat} when nothing else was sent for a while.
 * Collector → agent: {@link Ack} of the last sample applied, so that the agent keeps unacknowledged
 * samples for replay after a reconnect.
 *
 * <p>Active probes ride the same connection: the collector sends {@link ProbeStart} and
 * {@link ProbeCancel}; the agent answers with {@link ProbeReport}s. Probe frames are not samples:
 * they are neither acknowledged nor replayed (the collector fails a probe whose agent disconnects).
 */
public sealed interface Frame {

    /**
     * @param node           the node name (the {@code node} label)
     * @param agentVersion   version of the sending agent
     * @param intervalMillis the agent's sampling interval; the collector derives staleness from it
     * @param layoutId       id the following {@link Values} refer to
     * @param layout         structure of the host
     * @param capabilities   what the agent accepts beyond sampling, e.g. {@link #CAPABILITY_PROBES}; absent on
     *                       the wire means none
     * @param instance       id of this run of the agent process (random per start), so that the collector tells a
     *                       reconnect, whose {@code seq} goes on, from a restart, whose {@code seq} starts again;
     *                       null (absent on the wire) from agents that predate it
     */
    record Hello(String node, String agentVersion, long intervalMillis, int layoutId, HostLayout layout,
                 List<String> capabilities, String instance) implements Frame {
        /** The agent runs perftest for probes ({@code rdmamon agent --allow-probes}). */
        public static final String CAPABILITY_PROBES = "probes";
        /**
         * The agent runs the pingmesh's latency probes ({@code rdmamon agent --allow-pingmesh}): continuous traffic
         * the collector plans, a separate consent from an operator's on-demand bandwidth probes.
         */
        public static final String CAPABILITY_PINGMESH = "pingmesh";

        public Hello {
            Objects.requireNonNull(node, "node");
            Objects.requireNonNull(agentVersion, "agentVersion");
            Objects.requireNonNull(layout, "layout");
            capabilities = List.copyOf(capabilities);
        }

        /** A hello of an agent with no capabilities beyond sampling. */
        public Hello(String node, String agentVersion, long intervalMillis, int layoutId, HostLayout layout) {
            this(node, agentVersion, intervalMillis, layoutId, layout, List.of());
        }

        /** A hello without an instance id, as agents before it sent. */
        public Hello(String node, String agentVersion, long intervalMillis, int layoutId, HostLayout layout,
                     List<String> capabilities) {
            this(node, agentVersion, intervalMillis, layoutId, layout, capabilities, null);
        }

        public boolean accepts(String capability) {
            return capabilities.contains(capability);
        }
    }

    /** A new structure (device vanished, counter appeared, port state changed); replaces the previous one. */
    record LayoutChange(int layoutId, HostLayout layout) implements Frame {
        public LayoutChange {
            Objects.requireNonNull(layout, "layout");
        }
    }

    /**
     * @param layoutId        layout the values follow
     * @param seq             the agent's sample sequence number (monotonic across reconnects)
     * @param timestampMillis wall-clock time of the read
     * @param values          one unsigned 64-bit value per slot of the layout ({@link ValueSlots})
     * @param absent          slots whose value is absent (null in the model)
     * @param sources         per-source health of this sample
     */
    record Values(int layoutId, long seq, long timestampMillis, long[] values, BitSet absent,
                  List<SourceStatus> sources) implements Frame {
        public Values {
            values = values.clone();
            absent = (BitSet) absent.clone();
            sources = List.copyOf(sources);
        }

        @Override
        public long[] values() {
            return values.clone();
        }

        /** {@link #values()} without the copy, for decoding in this package: never modified. */
        long[] sharedValues() {
            return values;
        }

        /** {@link #absent()} without the copy, for decoding in this package: never modified. */
        BitSet sharedAbsent() {
            return absent;
        }

        @Override
        public BitSet absent() {
            return (BitSet) absent.clone();
        }

        @Override
        public boolean equals(Object other) {
            return other instanceof Values v && layoutId == v.layoutId && seq == v.seq
                    && timestampMillis == v.timestampMillis && java.util.Arrays.equals(values, v.values)
                    && absent.equals(v.absent) && sources.equals(v.sources);
        }

        @Override
        public int hashCode() {
            return Objects.hash(layoutId, seq, timestampMillis, java.util.Arrays.hashCode(values), absent, sources);
        }

        @Override
        public String toString() {
            return "Values[layoutId=" + layoutId + ", seq=" + seq + ", timestampMillis=" + timestampMillis
                    + ", slots=" + values.length + ", absent=" + absent + "]";
        }
    }

    /** Liveness while there is nothing to send. */
    record Heartbeat(long timestampMillis) implements Frame {
    }

    /** The collector applied (or already had) every sample up to {@code seq}. */
    record Ack(long seq) implements Frame {
    }

    /**
     * Run one side of a probe.
     *
     * @param probeId       the collector's probe id ({@link #PROBE_ID})
     * @param role          server (destination) or client (source)
     * @param spec          perftest options for this side
     * @param serverAddress client only: the server's address (IPv4 of its RoCE v2 GID, or the node address)
     * @param tcpPort       client: the server's perftest TCP port; server: 0 to let the agent pick a free one
     * @param timeoutMillis hard limit for the process; the agent kills its process group after it
     */
    record ProbeStart(String probeId, ProbeRole role, PerftestSpec spec, String serverAddress, int tcpPort,
                      long timeoutMillis) implements Frame {
        public ProbeStart {
            requireProbeId(probeId);
            Objects.requireNonNull(role, "role");
            Objects.requireNonNull(spec, "spec");
            if (role == ProbeRole.CLIENT && (serverAddress == null || serverAddress.isBlank())) {
                throw new IllegalArgumentException("a client probe needs the server's address");
            }
            if (tcpPort < 0 || tcpPort > 65_535 || (role == ProbeRole.CLIENT && tcpPort == 0)) {
                throw new IllegalArgumentException("tcpPort " + tcpPort + " is not valid for a " + role.wireName());
            }
            if (timeoutMillis <= 0) {
                throw new IllegalArgumentException("timeoutMillis must be positive: " + timeoutMillis);
            }
        }
    }

    /** Stop one probe's process (the collector's cancel, or the peer side failed). */
    record ProbeCancel(String probeId, String reason) implements Frame {
        public ProbeCancel {
            requireProbeId(probeId);
            Objects.requireNonNull(reason, "reason");
        }
    }

    /**
     * What happened to one side of a probe.
     *
     * @param probeId  the probe
     * @param role     the side reporting
     * @param phase    its phase
     * @param tcpPort  the server's TCP port once {@link ProbePhase#LISTENING}; 0 otherwise
     * @param result   the parsed bandwidth row (bandwidth client, {@link ProbePhase#DONE}); null otherwise
     * @param latency  the measured round trips (latency client, {@link ProbePhase#DONE}); null otherwise
     * @param exitCode perftest's exit code once it exited; null before, or when it never started
     * @param error    why it failed, perftest's own error lines verbatim where it printed any; null otherwise
     * @param output   the last lines perftest printed (bounded by the agent), for the probe's record
     */
    record ProbeReport(String probeId, ProbeRole role, ProbePhase phase, int tcpPort, PerftestResult result,
                       LatencyResult latency, Integer exitCode, String error, List<String> output) implements Frame {
        public ProbeReport {
            requireProbeId(probeId);
            Objects.requireNonNull(role, "role");
            Objects.requireNonNull(phase, "phase");
            if (tcpPort < 0 || tcpPort > 65_535) {
                throw new IllegalArgumentException("tcpPort " + tcpPort + " is outside 0..65535");
            }
            output = List.copyOf(output);
        }

        /** A report without latency round trips (every report of a bandwidth probe, every non-DONE one). */
        public ProbeReport(String probeId, ProbeRole role, ProbePhase phase, int tcpPort, PerftestResult result,
                           Integer exitCode, String error, List<String> output) {
            this(probeId, role, phase, tcpPort, result, null, exitCode, error, output);
        }
    }

    /**
     * One part of an InfiniBand fabric sweep ({@code rdmamon agent --fabric}): an optional frame, sent only to a
     * collector that accepts it; the shape is versioned within the frame ({@link FabricWire}). Not a sample: neither
     * acknowledged nor replayed (the next sweep replaces it).
     *
     * @param part  this frame's index among the sweep's frames, from 0
     * @param parts how many frames carry the sweep; each holds a share of its nodes and the same header
     * @param sweep the sweep's header and this part's nodes
     */
    record Fabric(int part, int parts, io.rdmamon.protocol.fabric.FabricSweep sweep) implements Frame {
        /** The optional frame type, as the collector names it among those it accepts. */
        public static final String TYPE = "fabric";

        public Fabric {
            Objects.requireNonNull(sweep, "sweep");
            if (parts < 1 || part < 0 || part >= parts) {
                throw new IllegalArgumentException("part " + part + " of " + parts + " is not a part");
            }
        }
    }

    /** Probe ids: short, URL- and log-safe. */
    java.util.regex.Pattern PROBE_ID = java.util.regex.Pattern.compile("[A-Za-z0-9][A-Za-z0-9-]{0,63}");

    private static void requireProbeId(String probeId) {
        Objects.requireNonNull(probeId, "probeId");
        if (!PROBE_ID.matcher(probeId).matches()) {
            throw new IllegalArgumentException("probe id " + WireText.quote(probeId) + " must match " + PROBE_ID.pattern());
        }
    }

    /**
     * Agent → collector, optional ({@link WireFormat#ACCEPTS_HEADER}): what the kernel log said about the host's NICs
     * since the agent started, cumulative, sent when it changed. State, not a sample: never acknowledged nor replayed.
     */
    record KernelEventsReport(io.rdmamon.protocol.model.KernelEvents events) implements Frame {
        /** The frame's type on the wire and in the collector's accept list. */
        public static final String TYPE = "kernel-events";

        public KernelEventsReport {
            Objects.requireNonNull(events, "events");
        }
    }

    /**
     * Agent → collector, optional ({@link WireFormat#ACCEPTS_HEADER}): the host's devlink health reporters, sent when
     * they changed. State, not a sample: never acknowledged nor replayed.
     */
    record DevlinkHealthReport(List<NicHealthReporter> reporters) implements Frame {
        /** The frame's type on the wire and in the collector's accept list. */
        public static final String TYPE = "devlink-health";

        public DevlinkHealthReport {
            reporters = List.copyOf(reporters);
        }
    }
}
