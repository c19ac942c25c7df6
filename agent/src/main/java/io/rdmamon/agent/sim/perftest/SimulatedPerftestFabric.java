package io.rdmamon.agent.sim.perftest;

import io.rdmamon.agent.probe.PerftestLauncher;
import io.rdmamon.agent.sim.FabricSimulator;

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
 * Bandwidth follows the ports' rates; round trips follow the simulator's leaves and scenario
 * ({@link SimulatedPathLatency}).
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
    private final SimulatedPathLatency latency;

    /** The paths between {@code simulator}'s nodes; efficiency drawn uniformly from 93–97 % per run. */
    public SimulatedPerftestFabric(FabricSimulator simulator) {
        this(() -> ThreadLocalRandom.current().nextDouble(MIN_EFFICIENCY, MAX_EFFICIENCY),
                SimulatedPathLatency.of(simulator));
    }

    /**
     * Every host under one leaf, without loss.
     *
     * @param efficiency the share of the link rate a run reaches (tests fix it)
     */
    public SimulatedPerftestFabric(DoubleSupplier efficiency) {
        this(efficiency, SimulatedPathLatency.clean());
    }

    SimulatedPerftestFabric(DoubleSupplier efficiency, SimulatedPathLatency latency) {
        this.efficiency = efficiency;
        this.latency = latency;
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

    SimulatedPathLatency latency() {
        return latency;
    }
}
