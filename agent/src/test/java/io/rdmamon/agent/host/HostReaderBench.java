package io.rdmamon.agent.host;

import io.rdmamon.protocol.model.HostSample;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * Cost of one full {@link HostReader#read(String)} on an 8-port mlx5 RoCE host: 8 copies of the
 * {@code mlx5-roce} fixture's {@code mlx5_0} (one port each, 16-entry GID table, 31 hw counters,
 * 21 PMA counters, a 94-line ethtool capture) in a temp directory.
 *
 * <p>Run (from the repository root, after {@code mvn -B -q -o -pl agent -am test-compile}):
 * {@code java -cp agent/target/test-classes:agent/target/classes:<deps> io.rdmamon.agent.host.HostReaderBench [iterations]};
 * see docs/performance.md. Not a test: nothing asserts timings on a shared 2-core build machine.
 */
public final class HostReaderBench {
    private static final int DEVICES = 8;

    private HostReaderBench() {
    }

    public static void main(String[] args) throws IOException {
        int iterations = args.length > 0 ? Integer.parseInt(args[0]) : 2000;
        Path root = Files.createTempDirectory("rdmamon-bench");
        try {
            buildHost(root);
            HostReader reader = HostReader.forRoot(root);
            long checksum = 0;
            for (int i = 0; i < iterations; i++) { // warm-up: JIT and the page cache
                checksum += reader.read("bench").devices().size();
            }
            long[] nanos = new long[iterations];
            for (int i = 0; i < iterations; i++) {
                long start = System.nanoTime();
                HostSample sample = reader.read("bench");
                nanos[i] = System.nanoTime() - start;
                checksum += sample.devices().size();
            }
            Arrays.sort(nanos);
            System.out.printf("devices=%d iterations=%d mean=%.1f us p50=%.1f us p99=%.1f us max=%.1f us (checksum %d)%n",
                    DEVICES, iterations, Arrays.stream(nanos).average().orElse(0) / 1e3,
                    nanos[iterations / 2] / 1e3, nanos[(int) (iterations * 0.99)] / 1e3,
                    nanos[iterations - 1] / 1e3, checksum);
        } finally {
            deleteTree(root);
        }
    }

    /** mlx5_0..mlx5_7, netdevs ens1f0np0..ens1f7np7, each with its sysfs net entry and ethtool capture. */
    static void buildHost(Path root) throws IOException {
        Path template = Fixtures.copy("mlx5-roce", Files.createTempDirectory("rdmamon-template"));
        try {
            Path device = template.resolve("sys/class/infiniband/mlx5_0");
            Files.delete(device.resolve("device/net/ens1f0np0"));
            for (int i = 0; i < DEVICES; i++) {
                String ifname = "ens1f" + i + "np" + i;
                copyTree(device, root.resolve("sys/class/infiniband/mlx5_" + i));
                copyTree(template.resolve("sys/class/net/ens1f0np0"), root.resolve("sys/class/net/" + ifname));
                Path gidNdevs = root.resolve("sys/class/infiniband/mlx5_" + i + "/ports/1/gid_attrs/ndevs");
                try (Stream<Path> files = Files.list(gidNdevs)) {
                    for (Path f : files.toList()) {
                        Files.writeString(f, ifname + "\n");
                    }
                }
                Path link = root.resolve("sys/class/infiniband/mlx5_" + i + "/device/net/" + ifname);
                Files.createDirectories(link.getParent());
                Files.createSymbolicLink(link, Path.of("../../../../net/" + ifname));
                Path stats = root.resolve("ethtool/" + ifname + "/statistics");
                Files.createDirectories(stats.getParent());
                Files.writeString(stats, Files.readString(template.resolve("ethtool/ens1f0np0/statistics"))
                        .replace("ens1f0np0", ifname));
            }
        } finally {
            deleteTree(template);
        }
    }

    private static void copyTree(Path source, Path target) throws IOException {
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

    private static void deleteTree(Path dir) throws IOException {
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
