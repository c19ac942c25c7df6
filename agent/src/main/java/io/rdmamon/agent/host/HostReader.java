package io.rdmamon.agent.host;

import io.rdmamon.protocol.model.EthtoolStats;
import io.rdmamon.protocol.model.HostSample;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * Reads everything rdmamon knows about a host below a host root (DESIGN.md §2): the
 * InfiniBand class in sysfs, the ethtool statistics of each port's netdev, libibverbs.
 *
 * <p>CONTRACT STUB: the signatures are fixed; the readers work fills in the bodies.
 */
public final class HostReader {
    private final Path hostRoot;

    private HostReader(Path hostRoot) {
        this.hostRoot = hostRoot;
    }

    /**
     * A reader for {@code hostRoot}. With root {@code /} ethtool statistics come from the
     * SIOCETHTOOL ioctl and verbs from libibverbs; otherwise from {@code <root>/ethtool/<if>/statistics}
     * and verbs are not used.
     *
     * @throws HostRootException when the root does not exist or is not a directory (message names it)
     */
    public static HostReader forRoot(Path hostRoot) throws HostRootException {
        throw new UnsupportedOperationException("not implemented yet");
    }

    public Path hostRoot() {
        return hostRoot;
    }

    /** Names of the devices under {@code sys/class/infiniband}, sorted; empty when the class is absent. */
    public List<String> deviceNames() {
        throw new UnsupportedOperationException("not implemented yet");
    }

    /** Names of the netdevs under {@code sys/class/net}, sorted. */
    public List<String> netdevNames() {
        throw new UnsupportedOperationException("not implemented yet");
    }

    /**
     * One full snapshot. Never throws for a device or file problem: each becomes a failed
     * {@link io.rdmamon.protocol.model.SourceStatus} naming the file, and the rest is still read.
     */
    public HostSample read(String node) {
        throw new UnsupportedOperationException("not implemented yet");
    }

    /**
     * The ethtool statistics of one netdev (for {@code rdmamon perf -i IF}).
     *
     * @throws IOException naming the interface when it does not exist or cannot be read
     */
    public EthtoolStats readNetdev(String ifname) throws IOException {
        throw new UnsupportedOperationException("not implemented yet");
    }
}
