package io.rdmamon.cli.node;

import io.rdmamon.agent.host.HostReader;
import io.rdmamon.agent.host.HostRootException;
import io.rdmamon.cli.failure.CliFailure;
import picocli.CommandLine.Option;

import java.nio.file.Files;
import java.nio.file.Path;

/** {@code --host-root DIR} of every reader subcommand (docs/architecture.md "Host root"): read only below DIR. */
public final class HostRootOption {
    @Option(names = "--host-root", paramLabel = "DIR", defaultValue = "/",
            description = "Read the host below DIR: / for this host, or a captured tree"
                    + " (sys/class/infiniband, sys/class/net, ethtool/<if>/statistics). Default: ${DEFAULT-VALUE}.")
    Path hostRoot;

    /**
     * A reader for the root. The root is checked here too, not only by {@link HostReader#forRoot},
     * so that the message names the flag the user typed.
     */
    public HostReader open() {
        return builder().build();
    }

    /** The settings of a reader for the root (the agent's refresh intervals), checked as {@link #open()} checks it. */
    public HostReader.Builder builder() {
        if (!Files.exists(hostRoot)) {
            throw CliFailure.badInput("--host-root " + hostRoot + ": no such directory");
        }
        if (!Files.isDirectory(hostRoot)) {
            throw CliFailure.badInput("--host-root " + hostRoot + ": not a directory");
        }
        try {
            return HostReader.builder(hostRoot);
        } catch (HostRootException e) {
            throw CliFailure.badInput("--host-root " + hostRoot + ": " + e.getMessage());
        }
    }

    /** The root, checked to be a directory (for readers that need no RDMA device, such as {@code topo}). */
    public Path directory() {
        if (!Files.exists(hostRoot)) {
            throw CliFailure.badInput("--host-root " + hostRoot + ": no such directory");
        }
        if (!Files.isDirectory(hostRoot)) {
            throw CliFailure.badInput("--host-root " + hostRoot + ": not a directory");
        }
        return hostRoot;
    }

    public Path path() {
        return hostRoot;
    }
}
