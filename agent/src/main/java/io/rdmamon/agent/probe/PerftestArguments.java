package io.rdmamon.agent.probe;

import io.rdmamon.agent.sysfs.SysfsFiles;
import io.rdmamon.agent.sysfs.SysfsParsers;
import io.rdmamon.protocol.model.GidEntry;
import io.rdmamon.protocol.model.PortTransport;
import io.rdmamon.protocol.probe.PerftestSpec;
import io.rdmamon.protocol.probe.ProbeRole;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The argv (without the binary) of one side of a probe, checked against the host it runs on. Bandwidth
 * ({@code ib_write_bw}): {@code -d DEV -i PORT [-x GID] -s SIZE -D SECONDS -q QPS [-b] -p TCPPORT --report_gbits -F
 * [-R] [SERVER]}, plus {@code -u} and {@code --tclass} when the spec names them. Latency ({@code ib_send_lat}): {@code
 * -d DEV -i PORT [-x GID] -s SIZE -n ITERS [-u QPTIMEOUT]
 * [--tclass TC] -U -F -p TCPPORT [-R] [SERVER]}: polling, not {@code -e} (sleep on completion events), which hung
 * both sides for minutes in the Soft-RoCE lab when a packet was lost (docs/probes-agent.md).
 *
 * <p>perftest wants the same options on both sides (its README); {@code --report_gbits} makes the
 * table speak the unit the link rate is given in; {@code -F} stops the CPU frequency warnings that
 * perftest interleaves with its table; {@code -R} (rdma_cm) is what iWARP ports ({@link PortTransport#IWARP}:
 * an RNIC such as eRDMA without RoCE v2 GIDs) need to connect at all. A latency probe sleeps on completion
 * events ({@code -e}), so that one waiting out a retransmission (4.096 µs × 2^{@code -u}) costs no CPU, and prints
 * every round trip in the order measured ({@code -U}), so that a lost packet shows as the round trip it cost rather
 * than vanishing into perftest's percentiles. Every option was checked against Debian's perftest 4.5
 * ({@code ib_send_lat --help}, {@code src/perftest_parameters.c} at v4.5-0.17: {@code -n} 5..10^8, {@code -u} a
 * uint8, {@code --tclass} a required argument).
 *
 * <p>Reads below the host root ({@code sys/class/infiniband}): blocking, call it on a worker.
 */
public final class PerftestArguments {
    /** An IPv4 or IPv6 literal or a DNS name: never something perftest could take for an option. */
    private static final Pattern ADDRESS = Pattern.compile("[A-Za-z0-9][A-Za-z0-9.:%_-]{0,252}");

    private PerftestArguments() {
    }

    /**
     * @param hostRoot      the agent's host root (docs/architecture.md "Host root")
     * @param tcpPort       the perftest TCP port ({@code -p}), 1..65535
     * @param serverAddress the server's address for a client; ignored for a server
     * @throws IllegalArgumentException naming the device, port, GID index or address at fault
     */
    public static List<String> build(Path hostRoot, PerftestSpec spec, ProbeRole role, int tcpPort, String serverAddress) {
        Path classDir = hostRoot.resolve("sys/class/infiniband");
        Path deviceDir = classDir.resolve(spec.device());
        if (!Files.isDirectory(deviceDir)) {
            throw new IllegalArgumentException("RDMA device " + spec.device() + " does not exist on this host (devices: "
                    + names(classDir) + ")");
        }
        Path portDir = deviceDir.resolve("ports").resolve(Integer.toString(spec.port()));
        if (!Files.isDirectory(portDir)) {
            throw new IllegalArgumentException(spec.device() + " has no port " + spec.port() + " (ports: "
                    + names(deviceDir.resolve("ports")) + ")");
        }
        if (spec.gidIndex() != null) {
            checkGid(spec, portDir.resolve("gids").resolve(Integer.toString(spec.gidIndex())));
        }
        if (tcpPort < 1 || tcpPort > 65_535) {
            throw new IllegalArgumentException("perftest TCP port " + tcpPort + " is outside 1..65535");
        }
        List<String> argv = new ArrayList<>(List.of("-d", spec.device(), "-i", Integer.toString(spec.port())));
        if (spec.gidIndex() != null) {
            argv.addAll(List.of("-x", Integer.toString(spec.gidIndex())));
        }
        argv.addAll(List.of("-s", Long.toString(spec.sizeBytes())));
        if (spec.test().latency()) {
            argv.addAll(List.of("-n", Integer.toString(spec.iterations())));
        } else {
            argv.addAll(List.of("-D", Integer.toString(spec.durationSeconds()), "-q", Integer.toString(spec.qps())));
            if (spec.bidirectional()) {
                argv.add("-b");
            }
        }
        // ib_write_bw takes both as well: a bandwidth spec that names them gets them
        if (spec.qpTimeout() != null) {
            argv.addAll(List.of("-u", Integer.toString(spec.qpTimeout())));
        }
        if (spec.trafficClass() != null) {
            argv.addAll(List.of("--tclass", Integer.toString(spec.trafficClass())));
        }
        argv.addAll(spec.test().latency() ? List.of("-U", "-F", "-p", Integer.toString(tcpPort))
                : List.of("-p", Integer.toString(tcpPort), "--report_gbits", "-F"));
        if (transport(deviceDir, portDir).needsRdmaCm()) {
            argv.add("-R");
        }
        if (role == ProbeRole.CLIENT) {
            if (serverAddress == null || !ADDRESS.matcher(serverAddress).matches()) {
                throw new IllegalArgumentException("server address '" + serverAddress
                        + "' is not an IP address or host name");
            }
            argv.add(serverAddress);
        }
        return List.copyOf(argv);
    }

    private static void checkGid(PerftestSpec spec, Path gidFile) {
        String where = "GID index " + spec.gidIndex() + " of " + spec.device() + " port " + spec.port();
        String gid;
        try {
            gid = SysfsParsers.parseGid(SysfsFiles.readOnce(gidFile));
        } catch (IOException e) {
            // the kernel answers EINVAL for the entries of a GID table that hold nothing
            throw new IllegalArgumentException(where + " is not in its GID table (" + SysfsFiles.describe(e) + ")");
        }
        if (SysfsParsers.isEmptyGid(gid)) {
            throw new IllegalArgumentException(where + " is an empty GID table entry");
        }
    }

    /**
     * The port's transport by the one rule ({@link PortTransport}): an RNIC without RoCE v2 GIDs is iWARP. An
     * unreadable node type counts as 0, which is never iWARP: perftest's default (verbs connection) is the
     * InfiniBand/RoCE one.
     */
    private static PortTransport transport(Path deviceDir, Path portDir) {
        int nodeTypeId;
        try {
            nodeTypeId = SysfsParsers.parseIdName(SysfsFiles.readOnce(deviceDir.resolve("node_type"))).id();
        } catch (IOException | IllegalArgumentException e) {
            nodeTypeId = 0;
        }
        String linkLayer;
        try {
            linkLayer = SysfsFiles.readOnce(portDir.resolve("link_layer")).strip();
        } catch (IOException e) {
            linkLayer = null;
        }
        return PortTransport.of(nodeTypeId, linkLayer, hasRoceV2Gid(portDir.resolve("gid_attrs/types")));
    }

    /** Any readable {@code gid_attrs/types/<i>} says RoCE v2 (empty entries fail to read: skipped). */
    private static boolean hasRoceV2Gid(Path typesDir) {
        if (!Files.isDirectory(typesDir)) {
            return false;
        }
        try (Stream<Path> entries = Files.list(typesDir)) {
            return entries.anyMatch(file -> {
                try {
                    return GidEntry.isRoceV2Type(SysfsFiles.readOnce(file));
                } catch (IOException e) {
                    return false;
                }
            });
        } catch (IOException e) {
            return false;
        }
    }

    private static String names(Path dir) {
        if (!Files.isDirectory(dir)) {
            return "none";
        }
        try (Stream<Path> entries = Files.list(dir)) {
            List<String> names = entries.map(p -> p.getFileName().toString()).sorted().toList();
            return names.isEmpty() ? "none" : String.join(", ", names);
        } catch (IOException e) {
            return dir + " unreadable: " + SysfsFiles.describe(e);
        }
    }
}
