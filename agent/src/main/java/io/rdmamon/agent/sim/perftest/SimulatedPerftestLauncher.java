package io.rdmamon.agent.sim.perftest;

import io.rdmamon.agent.probe.OutputKeepingRun;
import io.rdmamon.agent.probe.PerftestCommandLine;
import io.rdmamon.agent.probe.PerftestLauncher;
import io.rdmamon.agent.probe.PerftestReportFormat;
import io.rdmamon.agent.probe.PerftestRun;
import io.rdmamon.agent.sysfs.SysfsFiles;
import io.rdmamon.agent.sysfs.SysfsParsers;
import io.rdmamon.protocol.probe.PerftestTest;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * perftest for the simulated fabric, in-process: takes {@code ib_write_bw}'s or {@code ib_send_lat}'s argv, looks
 * for the device in the simulated node's host root, fails like perftest when it is not there, prints perftest's
 * output ({@link PerftestReportFormat}) and runs as long as the real one would: {@code -D} seconds of wall time for
 * bandwidth, the sum of the round trips for latency. The bandwidth comes from the two ports' {@code rate} files, so
 * a degraded (half-rate) port shows; the round trips from the fabric's paths ({@link SimulatedPathLatency}).
 */
final class SimulatedPerftestLauncher implements PerftestLauncher {
    /** What a process stopped by SIGTERM exits with, as Java reports it (128 + 15). */
    static final int KILLED_EXIT_CODE = 143;

    private final SimulatedPerftestFabric fabric;
    private final Path hostRoot;

    SimulatedPerftestLauncher(SimulatedPerftestFabric fabric, Path hostRoot) {
        this.fabric = fabric;
        this.hostRoot = hostRoot;
    }

    @Override
    public PerftestRun launch(PerftestTest test, List<String> arguments, Consumer<String> onLine) throws IOException {
        PerftestCommandLine options;
        try {
            options = PerftestCommandLine.parse(arguments);
        } catch (IllegalArgumentException e) {
            throw new IOException("simulated perftest: " + e.getMessage(), e);
        }
        SimulatedRun run = new SimulatedRun(test, options, onLine);
        List<String> devices = names(hostRoot.resolve("sys/class/infiniband"));
        if (devices.isEmpty()) {
            run.fail(PerftestReportFormat.noDevices());
        } else if (options.device() != null && !devices.contains(options.device())) {
            run.fail(PerftestReportFormat.deviceNotFound(options.device()));
        } else if (options.isServer()) {
            run.serve();
        } else {
            run.connect();
        }
        return run;
    }

    /** One simulated perftest process. */
    final class SimulatedRun extends OutputKeepingRun {
        private final PerftestTest test;
        private final PerftestCommandLine options;
        private ScheduledFuture<?> finish;

        SimulatedRun(PerftestTest test, PerftestCommandLine options, Consumer<String> onLine) {
            super(test, onLine);
            this.test = test;
            this.options = options;
        }

        private void print(List<String> lines) {
            lines.forEach(this::printed);
        }

        void fail(List<String> lines) {
            print(lines);
            exited(1);
        }

        void serve() {
            if (fabric.servers().putIfAbsent(options.tcpPort(), this) != null) {
                fail(PerftestReportFormat.couldNotListen(options.tcpPort()));
                return;
            }
            print(PerftestReportFormat.waitingForClient());
        }

        void connect() {
            // the server accepts one client and stops listening, like perftest's accept() then close()
            SimulatedRun server = fabric.servers().remove(options.tcpPort());
            if (server == null) {
                fail(PerftestReportFormat.couldNotConnect(options.server(), options.tcpPort()));
                return;
            }
            List<String> table;
            long millis;
            if (test.latency()) {
                // perftest times the gaps between consecutive posts: one fewer than the exchanges
                List<Double> roundTrips = fabric.latency().roundTripsMicros(hostRoot, server.hostRoot(),
                        options.iterations() - 1, options.qpTimeout(), options.tcpPort());
                table = PerftestReportFormat.latencyTable(options.sizeBytes(), options.iterations(),
                        roundTrips.stream().map(micros -> micros / 2).toList());
                millis = (long) Math.ceil(roundTrips.stream().mapToDouble(Double::doubleValue).sum() / 1_000);
            } else {
                double linkBits = Math.min(rateBits(hostRoot, options), rateBits(server.hostRoot(), server.options));
                double averageGbits = linkBits * fabric.efficiency() * (options.bidirectional() ? 2 : 1) / 1e9;
                long iterations = (long) (averageGbits * 1e9 / 8 * options.durationSeconds() / options.sizeBytes());
                // -D runs measure no peak: perftest prints 0.00 for it
                table = PerftestReportFormat.gbitsTable(options.sizeBytes(), iterations, 0, averageGbits);
                millis = options.durationSeconds() * 1_000L;
            }
            synchronized (server) {
                if (server.exit().isDone()) {
                    fail(PerftestReportFormat.couldNotConnect(options.server(), options.tcpPort()));
                    return;
                }
                // QP numbers as a driver hands them out: small, consecutive, different per side
                int serverQpn = 0x100 + options.tcpPort() % 0x1000;
                server.start(table, millis, serverQpn, serverQpn + 1, this);
            }
            start(table, millis, 0x100 + options.tcpPort() % 0x1000 + 1, 0x100 + options.tcpPort() % 0x1000, server);
        }

        private Path hostRoot() {
            return hostRoot;
        }

        private synchronized void start(List<String> table, long millis, int localQpn, int remoteQpn,
                                        SimulatedRun peer) {
            print(PerftestReportFormat.banner(test, options, linkType(), gidIndex()));
            print(PerftestReportFormat.addresses(localQpn, gid(), remoteQpn, peer.gid()));
            finish = fabric.clock().schedule(() -> complete(table), millis, TimeUnit.MILLISECONDS);
        }

        private synchronized void complete(List<String> table) {
            if (!exit().isDone()) {
                print(table);
                exited(0);
            }
        }

        @Override
        public boolean listening(int tcpPort) {
            return fabric.servers().get(tcpPort) == this;
        }

        @Override
        public synchronized void kill() {
            fabric.servers().remove(options.tcpPort(), this);
            if (finish != null) {
                finish.cancel(false);
            }
            exited(KILLED_EXIT_CODE);
        }

        private String linkType() {
            String layer = read(port(hostRoot, options).resolve("link_layer"));
            return "InfiniBand".equals(layer) ? "IB" : "Ethernet";
        }

        /** The GID this side uses, as sysfs prints it; null on InfiniBand without {@code -x} (no GRH). */
        private String gid() {
            Integer index = gidIndex();
            if (index == null) {
                return null;
            }
            String gid = read(port(hostRoot, options).resolve("gids").resolve(index.toString()));
            return gid != null && gid.matches("[0-9a-f:]{39}") ? gid : null;
        }

        /**
         * The {@code -x} index, or on Ethernet the GID perftest's auto-pick scores highest (docs/reference/perftest.md:
         * IPv4 +100, not link-local +10, RoCE v2 +2, v1 +1; the first of equal scores wins).
         */
        private Integer gidIndex() {
            if (options.gidIndex() != null || "IB".equals(linkType())) {
                return options.gidIndex();
            }
            Path portDir = port(hostRoot, options);
            int best = 0;
            int bestScore = -1;
            for (String index : names(portDir.resolve("gids"))) {
                String gid = read(portDir.resolve("gids").resolve(index));
                if (gid == null || !gid.matches("[0-9a-f:]{39}") || SysfsParsers.isEmptyGid(gid)) {
                    continue;
                }
                String type = read(portDir.resolve("gid_attrs/types").resolve(index));
                int score = (SysfsParsers.ipv4OfGid(gid) != null ? 100 : 0) + (gid.startsWith("fe80:") ? 0 : 10)
                        + ("RoCE v2".equals(type) ? 2 : type != null && type.contains("v1") ? 1 : 0);
                if (score > bestScore) {
                    bestScore = score;
                    best = Integer.parseInt(index);
                }
            }
            return best;
        }
    }

    private static Path port(Path root, PerftestCommandLine options) {
        return root.resolve("sys/class/infiniband").resolve(options.device()).resolve("ports")
                .resolve(Integer.toString(options.port()));
    }

    /** The port's link rate in bits per second, from its {@code rate} file (0 when unreadable: no traffic). */
    private static double rateBits(Path root, PerftestCommandLine options) {
        String rate = read(port(root, options).resolve("rate"));
        try {
            return rate == null ? 0 : SysfsParsers.parseRateBytesPerSecond(rate) * 8.0;
        } catch (IllegalArgumentException e) {
            return 0;
        }
    }

    private static String read(Path file) {
        try {
            return SysfsFiles.readOnce(file);
        } catch (IOException e) {
            return null;
        }
    }

    /** Entry names, numeric ones in numeric order. */
    private static List<String> names(Path dir) {
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> entries = Files.list(dir)) {
            return new ArrayList<>(entries.map(p -> p.getFileName().toString())
                    .sorted(Comparator.comparingInt(String::length).thenComparing(Comparator.naturalOrder())).toList());
        } catch (IOException e) {
            return List.of();
        }
    }
}
