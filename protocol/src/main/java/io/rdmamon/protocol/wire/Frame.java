package io.rdmamon.protocol.wire;

import io.rdmamon.protocol.model.SourceStatus;

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
 */
public sealed interface Frame {

    /**
     * @param node           the node name (the {@code node} label)
     * @param agentVersion   version of the sending agent
     * @param intervalMillis the agent's sampling interval; the collector derives staleness from it
     * @param layoutId       id the following {@link Values} refer to
     * @param layout         structure of the host
     */
    record Hello(String node, String agentVersion, long intervalMillis, int layoutId, HostLayout layout)
            implements Frame {
        public Hello {
            Objects.requireNonNull(node, "node");
            Objects.requireNonNull(agentVersion, "agentVersion");
            Objects.requireNonNull(layout, "layout");
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
}
