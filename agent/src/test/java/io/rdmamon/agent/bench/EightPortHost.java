package io.rdmamon.agent.bench;

import io.rdmamon.agent.sim.FabricSimulator;
import io.rdmamon.agent.sim.NodeKind;
import io.rdmamon.agent.sim.Scenario;
import io.rdmamon.agent.sim.SimulatedNode;
import io.rdmamon.agent.sim.SimulationSpec;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * An 8-port mlx5 RoCE host root for the benchmarks: the fabric simulator's RoCE node (two
 * ConnectX-6 devices with a 255-entry GID table per port, 21 PMA counters, 32 hw counters and a
 * 98-line {@code ethtool -S} capture each, a PCI function behind {@code device}, the netdev's carrier counters and a
 * transceiver EEPROM image) replicated to {@code mlx5_0..mlx5_7}, one port each, with netdevs
 * {@code ens1f0np0..ens1f7np7}, with the simulator's QoS captures ({@code dcb/<if>/}, {@code etc/nccl.conf}).
 * The 255-entry GID table matters: mlx5 exposes that many
 * entries and the reader opens every one of them.
 */
public final class EightPortHost {
    public static final int DEVICES = 8;

    private EightPortHost() {
    }

    /** Builds the host in a new directory below {@code parent} and returns its root. */
    public static Path build(Path parent) throws IOException {
        Path simBase = Files.createTempDirectory(parent, "sim");
        Path root = Files.createTempDirectory(parent, "host");
        try (FabricSimulator fabric = FabricSimulator.create(simBase,
                new SimulationSpec(1, Scenario.HEALTHY, SimulationSpec.DEFAULT_SEED, SimulationSpec.DEFAULT_LOSSLESS_PRIORITY))) {
            SimulatedNode node = fabric.nodes().get(0);
            if (node.kind() != NodeKind.ROCE_MLX5) {
                throw new IllegalStateException("simulator's first node is " + node.kind() + ", expected a RoCE mlx5 node");
            }
            Path source = node.hostRoot();
            for (int i = 0; i < DEVICES; i++) {
                int from = i % 2; // the simulated node has mlx5_0/ens1f0np0 and mlx5_1/ens1f1np1
                String fromIf = "ens1f" + from + "np" + from;
                String toIf = "ens1f" + i + "np" + i;
                Path device = root.resolve("sys/class/infiniband/mlx5_" + i);
                Path sourceDevice = source.resolve("sys/class/infiniband/mlx5_" + from);
                copyTree(sourceDevice, device);
                // <dev>/device links to the PCI function, as on a real host: copy the function, link it again
                Path function = root.resolve(String.format("sys/devices/pci0000:00/0000:00:%02x.0/0000:%02x:00.0",
                        i + 2, i + 0x10));
                copyTree(sourceDevice.resolve("device").toRealPath(), function);
                Files.delete(device.resolve("device"));
                Files.createSymbolicLink(device.resolve("device"), device.relativize(function));
                Files.move(device.resolve("device/net/" + fromIf), device.resolve("device/net/" + toIf));
                try (Stream<Path> ndevs = Files.list(device.resolve("ports/1/gid_attrs/ndevs"))) {
                    for (Path f : ndevs.toList()) {
                        Files.writeString(f, toIf + "\n");
                    }
                }
                copyTree(source.resolve("sys/class/net/" + fromIf), root.resolve("sys/class/net/" + toIf));
                copyTree(source.resolve("ethtool/" + fromIf), root.resolve("ethtool/" + toIf));
                // the QoS configuration: dcb -j captures of the port's netdev (docs/architecture.md "Host root")
                copyTree(source.resolve("dcb/" + fromIf), root.resolve("dcb/" + toIf));
            }
            copyTree(source.resolve("etc"), root.resolve("etc"));
        } finally {
            deleteTree(simBase);
        }
        return root;
    }

    public static void copyTree(Path source, Path target) throws IOException {
        try (Stream<Path> paths = Files.walk(source)) {
            for (Path p : paths.toList()) {
                Path dest = target.resolve(source.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(dest);
                } else {
                    Files.copy(p, dest);
                }
            }
        }
    }

    public static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
