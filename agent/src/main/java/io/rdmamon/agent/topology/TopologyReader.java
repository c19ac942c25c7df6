package io.rdmamon.agent.topology;

import io.rdmamon.agent.sysfs.PciFunctionReader;
import io.rdmamon.agent.sysfs.PciFunctionReader.PciDir;
import io.rdmamon.agent.sysfs.PciParsers;
import io.rdmamon.agent.sysfs.ReadProblems;
import io.rdmamon.agent.sysfs.RegularFiles;
import io.rdmamon.agent.sysfs.SmallFileReader;
import io.rdmamon.agent.sysfs.SysfsFiles;
import io.rdmamon.agent.sysfs.SysfsFiles.Failure;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads the GPU↔NIC topology below a host root (docs/architecture.md "Host root",
 * docs/reference/pingmesh-workloads-topology.md §3.5): every GPU under
 * {@code sys/bus/pci/devices} (class 0x0300xx or 0x0302xx, vendor NVIDIA 0x10de or AMD 0x1002), every RDMA device
 * ({@code sys/class/infiniband/<dev>/device}, resolved as {@code rdmamon pcie} resolves it), the bridges from each to
 * its root port (the directories of the function's real path named like PCI addresses), and of each function its
 * NUMA node, local CPUs, link, {@code config} facts and IOMMU group; then {@code proc/cmdline}, peermem and the
 * NVIDIA driver flavour. Files only: the decoding is {@link ConfigSpace}'s and {@link TopologyText}'s.
 *
 * <p>Every file is refused before it is opened when it is not a regular file ({@link RegularFiles}): sysfs attributes
 * and {@code config} are, and a FIFO in a captured root would block its {@code open(2)} for ever (and, through
 * {@link GpuTopologies}, every later reader of the topology). A refused file is a problem naming it.
 */
public final class TopologyReader {
    private static final int MAX_CONFIG_BYTES = 4096;
    private static final Set<Failure> TOLERATE_ABSENT = EnumSet.of(Failure.ABSENT, Failure.NO_VALUE);

    private final Path hostRoot;
    private final SmallFileReader files;
    private final PciFunctionReader pci;

    public TopologyReader(Path hostRoot) {
        this(hostRoot, SmallFileReader.SYSFS);
    }

    public TopologyReader(Path hostRoot, SmallFileReader files) {
        this.hostRoot = hostRoot;
        this.files = RegularFiles.guarding(files, hostRoot);
        this.pci = new PciFunctionReader(hostRoot, this.files);
    }

    public HostTopology read() {
        ReadProblems problems = new ReadProblems(hostRoot);
        Map<String, PciNode> nodes = new HashMap<>();
        List<PciDir> gpuDirs = new ArrayList<>();
        for (String name : list(hostRoot.resolve("sys/bus/pci/devices"), problems)) {
            if (!PciParsers.ADDRESS.matcher(name).matches()) {
                continue;
            }
            PciDir dir = pci.pciDir(hostRoot.resolve("sys/bus/pci/devices").resolve(name), problems);
            if (dir == null) {
                continue;
            }
            String cls = text(dir.dir().resolve("class"), problems);
            String vendor = text(dir.dir().resolve("vendor"), problems);
            if (TopologyText.isGpu(cls, vendor)) {
                gpuDirs.add(dir);
            }
        }
        gpuDirs.sort(Comparator.comparing(PciDir::address));
        List<Endpoint> gpus = new ArrayList<>();
        for (int i = 0; i < gpuDirs.size(); i++) {
            gpus.add(endpoint("GPU" + i, "GPU" + i, Endpoint.Kind.GPU, gpuDirs.get(i), nodes, problems));
        }
        List<String> devices = new ArrayList<>(list(hostRoot.resolve("sys/class/infiniband"), problems));
        devices.sort(TopologyText.NATURAL);
        List<Endpoint> nics = new ArrayList<>();
        for (String device : devices) {
            PciDir dir = pci.pciDir(hostRoot.resolve("sys/class/infiniband").resolve(device).resolve("device"), problems);
            if (dir == null) {
                continue;
            }
            nics.add(endpoint(device, "NIC" + nics.size(), Endpoint.Kind.NIC, dir, nodes, problems));
        }
        return new HostTopology(gpus, nics, host(problems), problems.messages());
    }

    private Endpoint endpoint(String name, String label, Endpoint.Kind kind, PciDir dir, Map<String, PciNode> nodes,
                              ReadProblems problems) {
        PciNode function = node(dir, nodes, problems);
        List<PciNode> bridges = new ArrayList<>();
        String hostBridge = null;
        Path root = realRoot();
        for (Path up = dir.dir().getParent(); up != null && up.startsWith(root) && !up.equals(root); up = up.getParent()) {
            String upName = up.getFileName().toString();
            if (PciParsers.ADDRESS.matcher(upName).matches()) {
                bridges.add(node(new PciDir(up, upName), nodes, problems));
            } else {
                hostBridge = upName.startsWith("pci") ? upName : null;
                break;
            }
        }
        return new Endpoint(name, label, kind, function, bridges, hostBridge);
    }

    private PciNode node(PciDir dir, Map<String, PciNode> nodes, ReadProblems problems) {
        PciNode known = nodes.get(dir.address());
        if (known != null) {
            return known;
        }
        Path d = dir.dir();
        Integer numa = problems.parse(d.resolve("numa_node"), text(d.resolve("numa_node"), problems),
                TopologyText::parseNumaNode);
        String group = null;
        String groupType = null;
        Path groupLink = d.resolve("iommu_group");
        if (Files.exists(groupLink)) {
            try {
                group = groupLink.toRealPath().getFileName().toString();
                groupType = text(hostRoot.resolve("sys/kernel/iommu_groups").resolve(group).resolve("type"), problems);
            } catch (IOException e) {
                problems.add(groupLink, SysfsFiles.describe(e));
            }
        }
        PciNode node = new PciNode(dir.address(), text(d.resolve("vendor"), problems),
                text(d.resolve("device"), problems), text(d.resolve("class"), problems), numa,
                text(d.resolve("local_cpulist"), problems), pci.readFunctionLink(dir, problems),
                config(d.resolve("config"), problems), group, groupType);
        nodes.put(dir.address(), node);
        return node;
    }

    private ConfigFacts config(Path file, ReadProblems problems) {
        byte[] bytes;
        try {
            RegularFiles.requireUnder(hostRoot, file);
            try (InputStream in = Files.newInputStream(file)) {
                bytes = in.readNBytes(MAX_CONFIG_BYTES);
            }
        } catch (NoSuchFileException e) {
            return ConfigFacts.absent();
        } catch (IOException e) {
            problems.add(file, SysfsFiles.describe(e));
            return ConfigFacts.absent();
        }
        return ConfigSpace.decode(bytes);
    }

    private HostFacts host(ReadProblems problems) {
        String cmdline = text(hostRoot.resolve("proc/cmdline"), problems);
        List<String> peermem = new ArrayList<>();
        if (Files.isDirectory(hostRoot.resolve("sys/module/nvidia_peermem"))) {
            peermem.add("sys/module/nvidia_peermem");
        }
        Path peers = hostRoot.resolve("sys/kernel/mm/memory_peers");
        for (String name : list(peers, problems)) {
            if (name.startsWith("nv_mem")) {
                peermem.add("sys/kernel/mm/memory_peers/" + name);
            }
        }
        String driver = text(hostRoot.resolve("proc/driver/nvidia/version"), problems);
        if (driver != null) {
            driver = driver.lines().findFirst().orElse(driver).strip();
        }
        return new HostFacts(cmdline, TopologyText.cmdlineSettings(cmdline), peermem, driver);
    }

    private Path realRoot() {
        try {
            return hostRoot.toRealPath();
        } catch (IOException e) {
            return hostRoot.toAbsolutePath();
        }
    }

    /** Entry names of a directory, sorted; none when it does not exist. */
    private List<String> list(Path dir, ReadProblems problems) {
        List<String> names = new ArrayList<>();
        if (!Files.isDirectory(dir)) {
            return names;
        }
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
            entries.forEach(p -> names.add(p.getFileName().toString()));
        } catch (IOException e) {
            problems.add(dir, SysfsFiles.describe(e));
        }
        names.sort(null);
        return names;
    }

    /** A text file's trimmed content; null when absent or empty, a problem when unreadable otherwise. */
    private String text(Path file, ReadProblems problems) {
        String text = problems.read(files, file, TOLERATE_ABSENT);
        return text == null || text.isBlank() ? null : text.strip();
    }
}
