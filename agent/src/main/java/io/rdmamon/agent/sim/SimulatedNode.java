package io.rdmamon.agent.sim;

import java.nio.file.Path;
import java.util.Objects;

/**
 * One simulated host.
 *
 * @param name     node name, e.g. {@code gpu-node-001} (also its directory name under the base dir)
 * @param hostRoot the host root to give {@code HostReader.forRoot}
 * @param kind     the RDMA hardware it carries
 * @param fault    the fault this node shows; {@link Scenario#HEALTHY} for none (never {@link Scenario#MIXED})
 */
public record SimulatedNode(String name, Path hostRoot, NodeKind kind, Scenario fault) {
    public SimulatedNode {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(hostRoot, "hostRoot");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(fault, "fault");
        if (fault == Scenario.MIXED) {
            throw new IllegalArgumentException("a node's fault cannot be 'mixed'");
        }
    }
}
