package io.rdmamon.protocol.model;

import java.util.List;

/**
 * The link counters of a port's netdev that rdmamon reads from {@code /sys/class/net/<if>/} on every sample
 * (docs/reference/physical-layer.md §1.1): how often the carrier went up and down, so that no flap between two samples
 * is missed.
 * Each file is {@code "%d\n"} of a 32-bit kernel counter; a kernel without one (before 4.16 for the up/down
 * counts, before 3.15 for {@code carrier_changes}) simply lacks it, and the value is absent.
 */
public final class NetdevCounters {
    /** {@code carrier_up_count + carrier_down_count} (since 4.16; a count of its own before). */
    public static final String CARRIER_CHANGES = "carrier_changes";
    /** Carrier on transitions (4.16+). */
    public static final String CARRIER_UP_COUNT = "carrier_up_count";
    /** Carrier off transitions (4.16+): one per flap, admin down included. */
    public static final String CARRIER_DOWN_COUNT = "carrier_down_count";
    /** The files read, in the order they are carried. */
    public static final List<String> FILES = List.of(CARRIER_CHANGES, CARRIER_UP_COUNT, CARRIER_DOWN_COUNT);

    private NetdevCounters() {
    }
}
