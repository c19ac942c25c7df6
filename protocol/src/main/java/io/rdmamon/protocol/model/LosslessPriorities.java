package io.rdmamon.protocol.model;

import java.util.List;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * The lossless (PFC-enabled) priorities of a port and how they were learned (docs/architecture.md "Metric names", "Rule
 * ids"): from the DCB
 * configuration ({@code pfc_en}) when it was read, else from which {@code rx/tx_prioN_pause} counters exist
 * (mlx5 creates them only for PFC-enabled priorities), else unknown. Never assumed.
 *
 * @param priorities the lossless priorities, ascending; empty when none or unknown
 * @param source     {@link #CONFIG}, {@link #COUNTERS} or {@link #UNKNOWN}
 */
public record LosslessPriorities(SortedSet<Integer> priorities, String source) {
    /** Read from the DCB PFC configuration. */
    public static final String CONFIG = "config";
    /** Learned from which pause counters the driver exports. */
    public static final String COUNTERS = "counters";
    /** Neither a PFC configuration nor ethtool statistics: nothing is known. */
    public static final String UNKNOWN = "";

    public LosslessPriorities {
        priorities = java.util.Collections.unmodifiableSortedSet(new TreeSet<>(priorities));
    }

    public static LosslessPriorities of(IbPort port) {
        QosConfig qos = port.qos();
        if (qos != null && qos.pfc() != null) {
            return new LosslessPriorities(new TreeSet<>(qos.pfcPriorities()), CONFIG);
        }
        if (port.ethtool() != null) {
            return new LosslessPriorities(port.ethtool().pfcEnabledPriorities(), COUNTERS);
        }
        return new LosslessPriorities(new TreeSet<>(), UNKNOWN);
    }

    public boolean fromConfig() {
        return CONFIG.equals(source);
    }

    /** The priorities as the {@code lossless_priorities} label prints them: {@code 3} or {@code 3,4}. */
    public String label() {
        return priorities.stream().map(String::valueOf).collect(Collectors.joining(","));
    }

    public List<Integer> asList() {
        return List.copyOf(priorities);
    }
}
