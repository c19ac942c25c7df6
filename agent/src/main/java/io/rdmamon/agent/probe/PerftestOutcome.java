package io.rdmamon.agent.probe;

import io.rdmamon.protocol.probe.LatencyResult;
import io.rdmamon.protocol.probe.PerftestResult;

import java.util.List;
import java.util.Objects;

/** What one perftest run's output says: a measured result (bandwidth row or round trips), or why there is none. */
public sealed interface PerftestOutcome {

    /** The (last) row of perftest's bandwidth table, in bits per second. */
    record Measured(PerftestResult result) implements PerftestOutcome {
        public Measured {
            Objects.requireNonNull(result, "result");
        }
    }

    /** The round trips of a latency test ({@code ib_send_lat -U}) and its summary row's size and iterations. */
    record MeasuredLatency(LatencyResult latency) implements PerftestOutcome {
        public MeasuredLatency {
            Objects.requireNonNull(latency, "latency");
        }
    }

    /**
     * No result row.
     *
     * @param kind  which failure perftest's lines show
     * @param lines perftest's own lines that are not part of its banner or table, verbatim
     *              (for {@link PerftestFailure#NO_DEVICE}: {@code " Did not detect devices "} and the two after it)
     */
    record Failed(PerftestFailure kind, List<String> lines) implements PerftestOutcome {
        public Failed {
            Objects.requireNonNull(kind, "kind");
            lines = List.copyOf(lines);
        }

        /** The lines as one text, as they were printed. */
        public String text() {
            return String.join("\n", lines);
        }
    }
}
