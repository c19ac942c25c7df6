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

/**
 * A simulated RDMA fabric: real host-root trees (DESIGN.md §2) under {@code <baseDir>/<node>/}
 * whose counters move with a traffic model, so the real readers
 * ({@code HostReader.forRoot(node.hostRoot())}) read them exactly as they read a host.
 *
 * <p>Thread safety: {@link #advance} may run on one thread while readers read the trees on others;
 * every file is replaced atomically. The methods of this class are synchronized.
 */
public final class FabricSimulator implements AutoCloseable {
    private final SimulationSpec spec;
    private final List<SimulatedHost> hosts;
    private final List<SimulatedNode> nodes;
    private Duration elapsed = Duration.ZERO;
    private boolean closed;

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

    /** Stops the simulation; the trees stay on disk (see {@link #deleteTrees()}). */
    @Override
    public synchronized void close() {
        closed = true;
    }

    /** Closes the simulator and deletes every node directory it created (and nothing else). */
    public synchronized void deleteTrees() throws IOException {
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
