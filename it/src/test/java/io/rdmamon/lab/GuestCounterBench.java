package io.rdmamon.lab;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import io.rdmamon.agent.sysfs.AttributeFiles;
import io.rdmamon.nativeio.rdma.NetlinkRdma;
import io.rdmamon.nativeio.rdma.RdmaDeviceIndex;

/**
 * A bench run inside a lab VM (docs/performance.md, "RDMA netlink against sysfs"): one port's hardware counters read
 * the agent's two ways, alternating in one JVM so both see the same machine: every {@code hw_counters/} file with the
 * agent's reader (descriptors kept, one {@code pread} per file and sample), and one RDMA netlink {@code STAT_GET}
 * ({@link NetlinkRdma}: socket, three options, bind, sendto, recv, close). Prints microseconds per port read of each
 * after a warm-up. Usage: {@code GuestCounterBench DEVICE ROUNDS}.
 */
public final class GuestCounterBench {
    private GuestCounterBench() {
    }

    public static void main(String[] args) throws Exception {
        String device = args[0];
        int rounds = Integer.parseInt(args[1]);
        Path dir = Path.of("/sys/class/infiniband", device, "ports", "1", "hw_counters");
        List<Path> files;
        try (Stream<Path> listing = Files.list(dir)) {
            files = listing.filter(f -> !f.getFileName().toString().equals("lifespan")).sorted().toList();
        }
        AttributeFiles sysfs = AttributeFiles.keepingDescriptors(AttributeFiles.DEFAULT_MAX_DESCRIPTORS);
        NetlinkRdma netlink = new NetlinkRdma();
        long index = netlink.devices().stream().filter(d -> d.name().equals(device)).findFirst()
                .map(RdmaDeviceIndex::index).orElseThrow(() -> new IllegalStateException("no " + device + " in RDMA netlink"));
        long sysfsNanos = 0;
        long netlinkNanos = 0;
        long sink = 0;
        for (int round = -rounds / 5; round < rounds; round++) {
            long start = System.nanoTime();
            for (Path file : files) {
                sink += sysfs.readCounter(file);
            }
            long middle = System.nanoTime();
            sink += netlink.portHwCounters(index, 1).size();
            long end = System.nanoTime();
            sysfs.sampleEnded();
            if (round >= 0) {
                sysfsNanos += middle - start;
                netlinkNanos += end - middle;
            }
        }
        System.out.printf("counters=%d rounds=%d sysfsMicros=%.1f netlinkMicros=%.1f ratio=%.2f sink=%d%n",
                files.size(), rounds, sysfsNanos / 1e3 / rounds, netlinkNanos / 1e3 / rounds,
                (double) sysfsNanos / netlinkNanos, sink);
    }
}
