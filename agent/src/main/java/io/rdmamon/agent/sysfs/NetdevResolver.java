package io.rdmamon.agent.sysfs;

import io.rdmamon.agent.sysfs.SysfsFiles.Failure;
import io.rdmamon.protocol.model.GidEntry;
import io.rdmamon.protocol.model.IbPort;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;

/**
 * Finds the Ethernet netdev of each RoCE/iWARP port of a device (docs/reference/sysfs-and-counters.md §1.6), in this
 * order:
 * <ol>
 *   <li>{@code <dev>/device/net/<if>}: netdevs of the same PCI function (mlx5, bnxt_re, irdma). A
 *       function with several ports (mlx4) tells them apart by {@code dev_port} (or, on old kernels,
 *       {@code dev_id} in hex), 0-based; without either, by name order.</li>
 *   <li>{@code gid_attrs/ndevs/<i>} of the port's GIDs (RoCE mode, incl. eRDMA in RoCEv2 mode).</li>
 *   <li>eRDMA is its own PCI function, so neither may name its netdev; its node_guid is the EUI-64
 *       of the netdev's MAC, so the netdev whose {@code sys/class/net/<if>/address} matches is it.</li>
 * </ol>
 * InfiniBand ports get no netdev: an IPoIB interface under {@code device/net} is not a RoCE netdev.
 */
final class NetdevResolver {
    private static final String ETHERNET = "Ethernet";
    private static final Set<Failure> TOLERATE_NO_VALUE = EnumSet.of(Failure.ABSENT, Failure.NO_VALUE);

    /** How attribute files are read, so that problems are recorded the same way as elsewhere. */
    @FunctionalInterface
    interface AttributeReader {
        String read(Path file, ReadProblems problems, Set<Failure> tolerated);
    }

    private final Path netClassDir;
    private final AttributeReader reader;

    NetdevResolver(Path netClassDir, AttributeReader reader) {
        this.netClassDir = netClassDir;
        this.reader = reader;
    }

    /** Port number → netdev name, for the Ethernet ports whose netdev was found. */
    Map<Integer, String> resolve(Path deviceDir, String nodeGuid, List<IbPort> ports, ReadProblems problems) {
        List<Integer> ethernetPorts = ports.stream()
                .filter(p -> ETHERNET.equals(p.linkLayer()))
                .map(IbPort::port)
                .toList();
        Map<Integer, String> netdevs = new TreeMap<>();
        if (ethernetPorts.isEmpty()) {
            return netdevs;
        }
        bySameFunction(deviceDir.resolve("device/net"), ethernetPorts, ports.size(), netdevs, problems);
        for (IbPort port : ports) {
            if (ethernetPorts.contains(port.port()) && !netdevs.containsKey(port.port())) {
                port.gids().stream().map(GidEntry::netdev).filter(Objects::nonNull).findFirst()
                        .ifPresent(netdev -> netdevs.put(port.port(), netdev));
            }
        }
        if (netdevs.size() < ethernetPorts.size() && nodeGuid != null) {
            String byMac = byEui64Mac(nodeGuid, problems);
            if (byMac != null) {
                ethernetPorts.forEach(port -> netdevs.putIfAbsent(port, byMac));
            }
        }
        return netdevs;
    }

    private void bySameFunction(Path netDir, List<Integer> ethernetPorts, int portCount,
                                Map<Integer, String> netdevs, ReadProblems problems) {
        List<String> names = listOrEmpty(netDir, problems);
        if (names.size() == 1 && portCount == 1) {
            netdevs.put(ethernetPorts.get(0), names.get(0));
            return;
        }
        for (int i = 0; i < names.size(); i++) {
            int port = portOfNetdev(netDir.resolve(names.get(i)), i, problems);
            if (ethernetPorts.contains(port)) {
                netdevs.putIfAbsent(port, names.get(i));
            }
        }
    }

    /**
     * The 1-based IB port a netdev of a multi-port function belongs to. {@code device/net/<if>} is the
     * same directory {@code /sys/class/net/<if>} links to, so its {@code dev_port} is read there.
     */
    private int portOfNetdev(Path netdevDir, int orderIndex, ReadProblems problems) {
        Path devPortFile = netdevDir.resolve("dev_port");
        String devPort = reader.read(devPortFile, problems, TOLERATE_NO_VALUE);
        if (devPort != null) {
            Integer index = problems.parse(devPortFile, devPort, SysfsParsers::parseDevPort);
            return index == null ? orderIndex + 1 : index + 1;
        }
        Path devIdFile = netdevDir.resolve("dev_id");
        Integer index = problems.parse(devIdFile, reader.read(devIdFile, problems, TOLERATE_NO_VALUE),
                SysfsParsers::parseDevId);
        return index == null ? orderIndex + 1 : index + 1;
    }

    private String byEui64Mac(String nodeGuid, ReadProblems problems) {
        String mac = SysfsParsers.macOfEui64Guid(nodeGuid);
        if (mac == null) {
            return null;
        }
        for (String ifname : listOrEmpty(netClassDir, problems)) {
            String address = reader.read(netClassDir.resolve(ifname).resolve("address"), problems, TOLERATE_NO_VALUE);
            if (mac.equalsIgnoreCase(address)) {
                return ifname;
            }
        }
        return null;
    }

    private static List<String> listOrEmpty(Path dir, ReadProblems problems) {
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try {
            return InfiniBandClassReader.DirectoryListing.names(dir);
        } catch (IOException e) {
            problems.add(dir, SysfsFiles.describe(e));
            return List.of();
        }
    }
}
