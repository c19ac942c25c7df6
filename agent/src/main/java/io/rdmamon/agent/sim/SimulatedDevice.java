package io.rdmamon.agent.sim;

import java.io.IOException;

/** One simulated RDMA device (one port each, as mlx5 exposes one PCI function per port) and its netdev. */
interface SimulatedDevice {
    /** The device's name under {@code sys/class/infiniband}. */
    String name();

    /** The Ethernet netdev of the device's port; null when it has none (InfiniBand). */
    String netdev();

    /** Writes the files that never change: identity, link layer, GID table, netdev address. */
    void writeLayout(HostTree tree) throws IOException;

    /**
     * Moves the traffic model {@code seconds} forward. During warm-up (building the counters a host
     * has after days of uptime) configuration faults apply but fault events (storms, flaps, drops)
     * do not, so every fault starts when the simulation starts.
     */
    void advance(double seconds, boolean warmUp);

    /** Writes everything that changes: port state, counters, ethtool statistics. */
    void writeState(HostTree tree) throws IOException;
}
