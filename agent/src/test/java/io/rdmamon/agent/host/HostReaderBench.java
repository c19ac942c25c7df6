package io.rdmamon.agent.host;

import io.rdmamon.agent.bench.EightPortHost;
import com.sun.management.OperatingSystemMXBean;
import io.rdmamon.agent.sysfs.AttributeFiles;
import io.rdmamon.protocol.model.HostSample;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.stream.Stream;

/**
 * Cost of one full {@link HostReader#read(String)} on 8-port mlx5 RoCE hosts, wall time and CPU time of
 * the whole process (all threads: since reads run on a watched reader thread, the calling thread's CPU is not the
 * cost; the process figure includes GC and JIT, so it is an upper bound), on three roots:
 * <ul>
 *   <li>{@code fixture-16gid}: 8 copies of the {@code mlx5-roce} fixture's {@code mlx5_0} (16-entry GID
 *       table, 31 hw counters, 21 PMA counters, a 94-line ethtool capture);</li>
 *   <li>{@code sim-255gid}: {@link EightPortHost}, the simulator's ConnectX-6 with mlx5's real 255-entry
 *       GID table (4 entries in use);</li>
 *   <li>{@code agent-kept}, {@code agent-opened}: {@code sim-255gid} read as the agent reads it (slow cadence,
 *       descriptors kept as on sysfs, or each file opened);</li>
 *   <li>{@code sim-4gid}: the same with the unused GID entries deleted, to show what the GID table costs.</li>
 * </ul>
 * and, for the QoS configuration's share, {@code sim-255gid} with its {@code dcb -j} captures read on every sample
 * ({@code qos-every-sample}, what a one-shot command does) and the agent's reader ({@code agent}: GID tables and QoS
 * reused for 30 s, {@code --gid-refresh}/{@code --qos-refresh}) with and without the captures.
 * The {@code sim-255gid} root is also read: one-shot ({@code HostReader.forRoot}, every file fresh, as
 * {@code rdmamon show} reads) and as the agent reads it ({@code sim-255gid-agent}: {@code --gid-refresh} and
 * {@code --module-refresh} at their 30 s defaults, so the GID tables, identity, PCIe link and transceivers come from
 * the slow-cadence caches and each sample reads the counters, port states, carrier and AER files).
 *
 * <p>Run (from {@code agent/}, after {@code mvn -B -q -o -pl agent -am test-compile dependency:build-classpath
 * -Dmdep.outputFile=target/cp.txt}): {@code java -cp $(cat target/cp.txt):target/test-classes:target/classes
 * io.rdmamon.agent.host.HostReaderBench [iterations]}; see docs/performance.md. Not a test: nothing
 * asserts timings on a shared 2-core build machine.
 */
public final class HostReaderBench {
    private static final int DEVICES = EightPortHost.DEVICES;
    /** The agent's {@code --gid-refresh} and {@code --module-refresh} defaults. */
    private static final Duration AGENT_REFRESH = Duration.ofSeconds(30);

    private HostReaderBench() {
    }

    public static void main(String[] args) throws IOException {
        int iterations = args.length > 0 ? Integer.parseInt(args[0]) : 2000;
        Path work = Files.createTempDirectory("rdmamon-bench");
        try {
            Path fixture = Files.createDirectory(work.resolve("fixture"));
            buildHost(fixture);
            Path sim = EightPortHost.build(work);
            measure("fixture-16gid", HostReader.forRoot(fixture), iterations);
            measure("sim-255gid qos-every-sample", HostReader.forRoot(sim), iterations);
            measure("sim-255gid agent+qos", HostReader.builder(sim).gidRefresh(AGENT_REFRESH)
                    .moduleRefresh(AGENT_REFRESH).qosRefresh(AGENT_REFRESH).build(), iterations);
            measure("agent-kept", asAgent(sim, AttributeFiles.keepingDescriptors(AttributeFiles.DEFAULT_MAX_DESCRIPTORS)),
                    iterations);
            measure("agent-opened", asAgent(sim, AttributeFiles.openingEachRead()), iterations);
            EightPortHost.deleteTree(sim.resolve("dcb"));
            EightPortHost.deleteTree(sim.resolve("etc"));
            measure("sim-255gid", HostReader.forRoot(sim), iterations);
            measure("sim-255gid-agent", HostReader.builder(sim).gidRefresh(AGENT_REFRESH)
                    .moduleRefresh(AGENT_REFRESH).build(), iterations);
            deleteUnusedGids(sim);
            measure("sim-4gid", HostReader.forRoot(sim), iterations);
        } finally {
            EightPortHost.deleteTree(work);
        }
    }

    /**
     * {@code sim} read as the agent reads it: the slow cadence of {@code --gid-refresh}, {@code --module-refresh} and {@code --qos-refresh} (30 s, so these
     * back-to-back
     * reads skip the GID tables and static attributes after the first, which at 1 Hz cost a full read every 30th
     * sample), through {@code files}: descriptors kept, as on a real host's sysfs, or each file opened, as on this
     * tree, which is not sysfs.
     */
    private static HostReader asAgent(Path sim, AttributeFiles files) throws IOException {
        return HostReader.builder(sim).files(files)
                .gidRefresh(AGENT_REFRESH).moduleRefresh(AGENT_REFRESH)
                .qosRefresh(AGENT_REFRESH).build();
    }

    private static void measure(String name, HostReader reader, int iterations) {
        OperatingSystemMXBean os = (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        long checksum = 0;
        for (int i = 0; i < iterations; i++) { // warm-up: JIT and the page cache
            checksum += reader.read("bench").devices().size();
        }
        long[] nanos = new long[iterations];
        long cpuStart = os.getProcessCpuTime();
        for (int i = 0; i < iterations; i++) {
            long start = System.nanoTime();
            HostSample sample = reader.read("bench");
            nanos[i] = System.nanoTime() - start;
            checksum += sample.devices().size();
        }
        double cpuMillis = (os.getProcessCpuTime() - cpuStart) / 1e6 / iterations;
        Arrays.sort(nanos);
        System.out.printf("%-28s devices=%d iterations=%d wall mean=%.2f ms p50=%.2f ms p99=%.2f ms max=%.2f ms; "
                        + "process CPU mean=%.2f ms (checksum %d)%n",
                name, DEVICES, iterations, Arrays.stream(nanos).average().orElse(0) / 1e6,
                nanos[iterations / 2] / 1e6, nanos[(int) (iterations * 0.99)] / 1e6,
                nanos[iterations - 1] / 1e6, cpuMillis, checksum);
        // where the last sample's time went, per source (sysfs, the device listing and the watchdog are the rest)
        StringBuilder bySource = new StringBuilder();
        reader.lastSourceDurations().forEach((source, took) -> bySource.append(String.format(" %s=%.3f ms", source,
                took.toNanos() / 1e6)));
        System.out.printf("%-28s last sample by source:%s%n", "", bySource);
    }

    /** Deletes the all-zero (unused) GID entries of every port: what the table would cost if only used entries existed. */
    private static void deleteUnusedGids(Path root) throws IOException {
        try (Stream<Path> files = Files.walk(root.resolve("sys/class/infiniband"))) {
            for (Path f : files.filter(p -> p.getParent().getFileName().toString().equals("gids")).toList()) {
                if (Files.readString(f).startsWith("0000:0000:0000:0000:0000:0000:0000:0000")) {
                    Files.delete(f);
                }
            }
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
                EightPortHost.copyTree(device, root.resolve("sys/class/infiniband/mlx5_" + i));
                EightPortHost.copyTree(template.resolve("sys/class/net/ens1f0np0"), root.resolve("sys/class/net/" + ifname));
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
            EightPortHost.deleteTree(template);
        }
    }
}
