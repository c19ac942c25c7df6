package io.rdmamon.protocol.rates;

/** Where a counter comes from; its width and overflow behaviour depend on it. */
public enum CounterGroup {
    /** {@code ports/<n>/counters/}: PMA counters (IBA PortCounters / PortCountersExt). */
    PORT_COUNTERS,
    /** {@code ports/<n>/hw_counters/}: driver counters (mlx5 Q counters, congestion counters, eRDMA stats). */
    HW_COUNTERS,
    /** {@code ethtool -S} statistics of the port's netdev. */
    ETHTOOL
}
