package io.rdmamon.agent.sim.perftest;

import io.rdmamon.agent.probe.PerftestLauncher;

import java.nio.file.Path;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.DoubleSupplier;

/**
 * The "network" between simulated perftests of one process ({@code rdmamon demo}): servers wait
 * here under their TCP port, and a client finds its server by that port, like perftest's TCP
 * rendezvous. Ports come from the agents' free-port choice, so they are unique on the machine.
 */
public final class SimulatedPerftestFabric {
    /** RDMA WRITE reaches 93–97 % of the link rate on a healthy link (headers and flow control take the rest). */
    static final double MIN_EFFICIENCY = 0.93;
    static final double MAX_EFFICIENCY = 0.97;

    private final ConcurrentMap<Integer, SimulatedPerftestLauncher.SimulatedRun> servers = new ConcurrentHashMap<>();
    private final ScheduledExecutorService clock = Executors.newSingleThreadScheduledExecutor(task -> {
        Thread thread = new Thread(task, "simulated-perftest");
        thread.setDaemon(true);
        return thread;
    });
    private final DoubleSupplier efficiency;

    /** Efficiency drawn uniformly from 93–97 % per run. */
    public SimulatedPerftestFabric() {
        this(() -> ThreadLocalRandom.current().nextDouble(MIN_EFFICIENCY, MAX_EFFICIENCY));
    }

    /** @param efficiency the share of the link rate a run reaches (tests fix it) */
    public SimulatedPerftestFabric(DoubleSupplier efficiency) {
        this.efficiency = efficiency;
    }

    /** A launcher for the simulated node whose host root is {@code hostRoot}. */
    public PerftestLauncher launcherFor(Path hostRoot) {
        return new SimulatedPerftestLauncher(this, hostRoot);
    }

    ConcurrentMap<Integer, SimulatedPerftestLauncher.SimulatedRun> servers() {
        return servers;
    }

    ScheduledExecutorService clock() {
        return clock;
    }

    double efficiency() {
        return efficiency.getAsDouble();
    }
}
