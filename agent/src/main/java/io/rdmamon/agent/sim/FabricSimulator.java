package io.rdmamon.agent.sim;

import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.SplittableRandom;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import io.rdmamon.agent.host.HostReader;
import io.rdmamon.agent.host.HostRootException;

/**
 * A simulated RDMA fabric: real host-root trees (docs/architecture.md "Host root") under {@code <baseDir>/<node>/}
 * whose counters move with a traffic model, so the real readers
 * ({@code HostReader.forRoot(node.hostRoot())}) read them exactly as they read a host.
 *
 * <p>The simulator keeps its own time: {@link #startClock} advances it by the wall-clock time elapsed, on a
 * thread of its own, until {@link #stopClock} or {@link #close}. Tests that want exact steps call
 * {@link #advance} instead.
 *
 * <p>Thread safety: {@link #advance} may run on one thread while readers read the trees on others;
 * every file is replaced atomically. The methods of this class are synchronized.
 */
public final class FabricSimulator implements AutoCloseable {
    private final SimulationSpec spec;
    private final List<SimulatedHost> hosts;
    private final List<SimulatedNode> nodes;
    /** Shortest step of the clock: the step rewrites every moving file of every node. */
    private static final Duration MIN_CLOCK_STEP = Duration.ofMillis(50);
    private Duration elapsed = Duration.ZERO;
    private boolean closed;
    private ScheduledExecutorService clock;

    private FabricSimulator(SimulationSpec spec, List<SimulatedHost> hosts) {
        this.spec = spec;
        this.hosts = hosts;
        this.nodes = hosts.stream().map(SimulatedHost::node).toList();
    }

    /**
     * Writes the initial trees for every node of {@code spec} under {@code baseDir} (created if
     * missing), with counters as after a few days of uptime.
     *
     * @throws IOException              when a node directory already exists and is not empty (it is
     *                                  never overwritten), or a file cannot be written; the message
     *                                  names the path
     * @throws IllegalArgumentException when the scenario needs a node kind the fleet lacks
     *                                  (e.g. erdma-ratelimit with 1 node)
     */
    public static FabricSimulator create(Path baseDir, SimulationSpec spec) throws IOException {
        Objects.requireNonNull(baseDir, "baseDir");
        Objects.requireNonNull(spec, "spec");
        List<FleetPlan.NodePlan> plan = FleetPlan.plan(spec);
        Files.createDirectories(baseDir);
        SplittableRandom fleetRandom = new SplittableRandom(spec.seed());
        List<SimulatedHost> hosts = new ArrayList<>(plan.size());
        for (FleetPlan.NodePlan node : plan) {
            hosts.add(SimulatedHost.create(baseDir, node, spec, fleetRandom.split()));
        }
        return new FabricSimulator(spec, List.copyOf(hosts));
    }

    public SimulationSpec spec() {
        return spec;
    }

    /** The simulated nodes in name order. */
    public List<SimulatedNode> nodes() {
        return nodes;
    }

    /**
     * The reader of {@code node} as its agent runs it: the tree's files, and the node's QPs from its simulated RDMA
     * netlink, attributed through the tree's {@code proc/} with the simulated pods' names (docs/simulator.md).
     *
     * @throws HostRootException when the node's tree is gone (the simulator was closed)
     */
    public HostReader reader(SimulatedNode node) throws HostRootException {
        SimulatedWorkloads workloads = hosts.get(nodes.indexOf(node)).workloads();
        return HostReader.builder(node.hostRoot()).rdmaNetlink(workloads.netlink()).pods(workloads.pods()).build();
    }

    /** Simulated time since {@link #create}. */
    public synchronized Duration elapsed() {
        return elapsed;
    }

    /**
     * Moves every node {@code step} forward (normally the wall-clock time since the last call) and
     * rewrites the files that changed.
     *
     * @throws IllegalArgumentException when {@code step} is negative
     * @throws IllegalStateException    after {@link #close()}
     * @throws IOException              naming the node and file that could not be written
     */
    public synchronized void advance(Duration step) throws IOException {
        Objects.requireNonNull(step, "step");
        if (step.isNegative()) {
            throw new IllegalArgumentException("cannot advance the simulation by a negative duration: " + step);
        }
        if (closed) {
            throw new IllegalStateException("the fabric simulator is closed");
        }
        if (step.isZero()) {
            return;
        }
        double seconds = step.getSeconds() + step.getNano() / 1e9;
        for (SimulatedHost host : hosts) {
            try {
                host.advance(seconds);
            } catch (IOException e) {
                throw new IOException("simulated node " + host.node().name() + ": " + e, e);
            }
        }
        elapsed = elapsed.plus(step);
    }

    /**
     * Starts advancing the fabric by the wall-clock time elapsed, step after step, on a thread of its own. It
     * steps four times per {@code sampleInterval} (at most every 50 ms): stepping at the sampling rate would
     * alias (two samples between one step read a zero rate, the next one double). Steps never overlap: a slow
     * step (a slow disk) makes the next one longer.
     *
     * @param onFailure told of a step that failed (the clock goes on with the next step)
     * @throws IllegalStateException when the clock already runs or the simulator is closed
     */
    public synchronized void startClock(Duration sampleInterval, Consumer<Exception> onFailure) {
        if (closed) {
            throw new IllegalStateException("the fabric simulator is closed");
        }
        if (clock != null) {
            throw new IllegalStateException("the fabric simulator's clock already runs");
        }
        long stepMillis = Math.max(MIN_CLOCK_STEP.toMillis(), sampleInterval.toMillis() / 4);
        clock = Executors.newSingleThreadScheduledExecutor(task -> {
            Thread thread = new Thread(task, "fabric-simulator-clock");
            thread.setDaemon(true);
            return thread;
        });
        long[] last = {System.nanoTime()};
        clock.scheduleWithFixedDelay(() -> {
            long now = System.nanoTime();
            try {
                advance(Duration.ofNanos(now - last[0]));
            } catch (IOException | RuntimeException e) {
                onFailure.accept(e);
            }
            last[0] = now;
        }, stepMillis, stepMillis, TimeUnit.MILLISECONDS);
    }

    /** True between {@link #startClock} and {@link #stopClock}. */
    public synchronized boolean clockRunning() {
        return clock != null;
    }

    /** Stops the clock; a step under way finishes first. Nothing when it does not run. */
    public void stopClock() throws InterruptedException {
        ScheduledExecutorService running;
        synchronized (this) {
            running = clock;
            clock = null;
        }
        if (running != null) {
            running.shutdown(); // no interrupt: a step cut short would fail its file writes
            // outside the lock: the step under way needs it to finish
            running.awaitTermination(1, TimeUnit.MINUTES);
        }
    }

    /** Stops the clock and the simulation; the trees stay on disk (see {@link #deleteTrees()}). */
    @Override
    public void close() {
        try {
            stopClock();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        synchronized (this) {
            closed = true;
        }
    }

    /** Closes the simulator and deletes every node directory it created (and nothing else). */
    public void deleteTrees() throws IOException {
        close();
        for (SimulatedNode node : nodes) {
            deleteRecursively(node.hostRoot());
        }
    }

    private static void deleteRecursively(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        Files.walkFileTree(root, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) throws IOException {
                Files.delete(file);
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult postVisitDirectory(Path dir, IOException failure) throws IOException {
                if (failure != null) {
                    throw failure;
                }
                Files.delete(dir);
                return FileVisitResult.CONTINUE;
            }
        });
    }
}
