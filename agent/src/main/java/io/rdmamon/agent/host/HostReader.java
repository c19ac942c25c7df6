package io.rdmamon.agent.host;

import io.rdmamon.agent.capability.UnsupportedCapabilityException;
import io.rdmamon.agent.ethtool.CapturedEthtoolStatsSource;
import io.rdmamon.agent.ethtool.EthtoolStatsSource;
import io.rdmamon.agent.ethtool.EthtoolViews;
import io.rdmamon.agent.ethtool.IoctlEthtoolStatsSource;
import io.rdmamon.agent.host.ReadWatchdog.StuckReadException;
import io.rdmamon.agent.lldp.LldpReader;
import io.rdmamon.agent.lldp.LldpctlCommand;
import io.rdmamon.agent.module.CapturedModuleEepromSource;
import io.rdmamon.agent.module.IoctlModuleEepromSource;
import io.rdmamon.agent.module.ModuleEepromSource;
import io.rdmamon.agent.module.ModuleReader;
import io.rdmamon.agent.qos.CapturedDcbSource;
import io.rdmamon.agent.qos.DcbSource;
import io.rdmamon.agent.qos.NetlinkDcbSource;
import io.rdmamon.agent.qos.QosReader;
import io.rdmamon.agent.topology.GpuTopologies;
import io.rdmamon.agent.topology.TopologyReader;
import io.rdmamon.protocol.model.GpuTopology;
import io.rdmamon.agent.rdma.RdmaNetlinkReader;
import io.rdmamon.agent.workload.PodDirectory;
import io.rdmamon.agent.workload.ProcessFiles;
import io.rdmamon.agent.workload.WorkloadAttributor;
import io.rdmamon.agent.sysfs.DeviceReading;
import io.rdmamon.agent.sysfs.InfiniBandClassReader;
import io.rdmamon.agent.sysfs.AttributeFiles;
import io.rdmamon.agent.sysfs.SlowCadenceCache;
import io.rdmamon.agent.sysfs.SmallFileReader;
import io.rdmamon.agent.sysfs.SysfsFiles;
import io.rdmamon.agent.verbs.VerbsPortReader;
import io.rdmamon.nativeio.rdma.NetlinkRdma;
import io.rdmamon.nativeio.rdma.RdmaNetlink;
import io.rdmamon.nativeio.verbs.VerbsException;
import io.rdmamon.protocol.model.EthtoolStats;
import io.rdmamon.protocol.model.FecMode;
import io.rdmamon.protocol.model.HostSample;
import io.rdmamon.protocol.model.IbDevice;
import io.rdmamon.protocol.model.IbPort;
import io.rdmamon.protocol.model.LldpNeighbor;
import io.rdmamon.protocol.model.PortTransport;
import io.rdmamon.protocol.model.QosConfig;
import io.rdmamon.protocol.model.SourceStatus;
import io.rdmamon.protocol.model.TransceiverModule;
import io.rdmamon.protocol.model.VerbsPortAttributes;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Reads everything rdmamon knows about a host below a host root (DESIGN.md §2): the
 * InfiniBand class in sysfs, the ethtool statistics of each port's netdev, libibverbs.
 *
 * <p>All methods block on file and ioctl I/O: call them from a worker thread, never an event loop.
 * A reader is immutable; the {@code with...} methods return changed copies.
 */
public final class HostReader {
    static final String SOURCE_SYSFS = "sysfs";
    /** The source name of the GPU/NIC topology read (a status only when it fails). */
    static final String SOURCE_TOPOLOGY = "topology";
    static final String SOURCE_ETHTOOL = "ethtool";
    static final String SOURCE_VERBS = "verbs";
    static final String SOURCE_MODULE = "module";
    static final String SOURCE_FEC = "fec";
    /**
     * How long one read (a sysfs file, a netdev's ethtool statistics, a verbs port query) may block
     * before the sample goes on without it: a read slower than the agent's 1 s sampling interval is of
     * no use to the stream, and a healthy one takes well under a millisecond.
     */
    static final Duration READ_DEADLINE = Duration.ofSeconds(1);
    /** Reads left blocked at once (each holds one daemon thread) before the host is not read at all. */
    static final int MAX_STUCK_READS = 8;

    private final Path hostRoot;
    /** Every blocking read goes through it; shared by the copies, as are the stuck reads it knows. */
    private final ReadWatchdog watchdog;
    /** The sysfs files, read under {@link #watchdog}. */
    private final SmallFileReader files;
    private final InfiniBandClassReader sysfs;
    private final EthtoolStatsSource ethtool;
    /** Null when verbs are not used (any root but {@code /}). */
    private final VerbsPortReader verbs;
    private final Pattern deviceInclude;
    private final Pattern deviceExclude;
    private final Clock clock;
    /** The transceiver of each port's netdev, on its own (slow) cadence. */
    private final ModuleReader modules;
    /** Where the DCB configuration comes from; {@link #qos} reads through it. */
    private final DcbSource dcb;
    /** The QoS configuration of RoCE ports and {@code etc/nccl.conf}, with its own reuse interval. */
    private final QosReader qos;
    /** The GPU↔NIC topology, reused for the QoS refresh interval (the slow cadence of host-wide facts). */
    private final GpuTopologies topology;
    /** Each netdev's typed-view rules, resolved once per list of names; a copy starts its own. */
    private final EthtoolViews ethtoolViews = new EthtoolViews();

    /** Each netdev's FEC encoding on the slow cadence (with the GID tables); null: read every sample. */
    private final SlowCadenceCache fecCadence;
    /** Resources, QPs and port hw counters over RDMA netlink; null when not used (any root but {@code /}). */
    private final RdmaNetlinkReader rdma;
    /** Each Ethernet netdev's LLDP neighbour, with its own reuse interval. */
    private final LldpReader lldp;

    private HostReader(Path hostRoot, ReadWatchdog watchdog, SmallFileReader files, InfiniBandClassReader sysfs,
                       EthtoolStatsSource ethtool, VerbsPortReader verbs, Pattern deviceInclude, Pattern deviceExclude,
                       Clock clock, ModuleReader modules, DcbSource dcb, QosReader qos,
                       SlowCadenceCache fecCadence, RdmaNetlinkReader rdma, LldpReader lldp) {
        this.hostRoot = hostRoot;
        this.watchdog = watchdog;
        this.files = files;
        this.sysfs = sysfs;
        this.ethtool = ethtool;
        this.verbs = verbs;
        this.deviceInclude = deviceInclude;
        this.deviceExclude = deviceExclude;
        this.clock = clock;
        this.modules = modules;
        this.dcb = dcb;
        this.qos = qos;
        this.topology = new GpuTopologies(hostRoot, new TopologyReader(hostRoot),
                Duration.ofMillis(qos.refreshMillis()), clock::millis);
        this.fecCadence = fecCadence;
        this.rdma = rdma;
        this.lldp = lldp;
    }

    /**
     * A reader for {@code hostRoot}. With root {@code /} ethtool statistics come from the
     * SIOCETHTOOL ioctl, verbs from libibverbs, device resources, QPs and port hw counters from RDMA netlink;
     * otherwise from {@code <root>/ethtool/<if>/statistics}, and neither verbs nor RDMA netlink are used.
     *
     * @throws HostRootException when the root does not exist or is not a directory (message names it)
     */
    public static HostReader forRoot(Path hostRoot) throws HostRootException {
        Path root = validRoot(hostRoot);
        if (root.getParent() == null) {
            return forRoot(root, IoctlEthtoolStatsSource.loadNative(), VerbsPortReader.loadNative())
                    .withModuleSource(IoctlModuleEepromSource.loadNative()).withRdmaNetlink(new NetlinkRdma());
        }
        return forRoot(root, new CapturedEthtoolStatsSource(root), null);
    }

    /**
     * A reader for {@code hostRoot} with the given sources (tests, the simulator, captures replayed
     * with another ethtool source).
     *
     * @param verbs null to not use verbs at all (no verbs field, no verbs status)
     */
    public static HostReader forRoot(Path hostRoot, EthtoolStatsSource ethtool, VerbsPortReader verbs)
            throws HostRootException {
        return withFiles(hostRoot, AttributeFiles.forRoot(validRoot(hostRoot)), ethtool, verbs);
    }

    /** As {@link #forRoot(Path, EthtoolStatsSource, VerbsPortReader)}, reading sysfs files through {@code files}. */
    static HostReader withFiles(Path hostRoot, SmallFileReader files, EthtoolStatsSource ethtool, VerbsPortReader verbs)
            throws HostRootException {
        return withFiles(hostRoot, files, ethtool, verbs, READ_DEADLINE);
    }

    /** As {@link #withFiles(Path, SmallFileReader, EthtoolStatsSource, VerbsPortReader)}, with another read deadline. */
    static HostReader withFiles(Path hostRoot, SmallFileReader files, EthtoolStatsSource ethtool, VerbsPortReader verbs,
                                Duration readDeadline) throws HostRootException {
        Path root = validRoot(hostRoot);
        ReadWatchdog watchdog = new ReadWatchdog(readDeadline, MAX_STUCK_READS,
                key -> key instanceof Path path && path.startsWith(root) ? root.relativize(path).toString() : key.toString());
        SmallFileReader watched = new SmallFileReader() {
            @Override
            public String read(Path file) throws IOException {
                return watchdog.watch(file, () -> files.read(file));
            }

            @Override
            public Long readCounter(Path file) throws IOException {
                return watchdog.watch(file, () -> files.readCounter(file));
            }

            @Override
            public void sampleEnded() {
                files.sampleEnded();
            }
        };
        Clock clock = Clock.systemUTC();
        // on a live host the DCB netlink reader, elsewhere the dcb -j captures under the root
        DcbSource dcb = root.getParent() == null ? NetlinkDcbSource.loadNative() : new CapturedDcbSource(root);
        // on a live host lldpd answers for a netdev without a capture; elsewhere only captures count
        LldpReader lldp = new LldpReader(root, root.getParent() == null ? LldpctlCommand.standard() : null)
                .withClock(clock::millis);
        return new HostReader(root, watchdog, watched, new InfiniBandClassReader(root, watched), ethtool, verbs,
                null, null, clock, new ModuleReader(new CapturedModuleEepromSource(root), null, clock::millis), dcb,
                qosReader(root, watchdog, watched, dcb, Duration.ZERO, clock), null, null, lldp);
    }

    /**
     * Only devices whose whole name matches {@code include} (null: all) and not {@code exclude}
     * (null: none), like node_exporter's {@code --collector.infiniband.device-include/-exclude}
     * but anchored, so {@code mlx5_1} does not also select {@code mlx5_10}.
     */
    public HostReader withDeviceFilter(Pattern include, Pattern exclude) {
        return new HostReader(hostRoot, watchdog, files, sysfs, ethtool, verbs, include, exclude, clock, modules, dcb,
                qos, fecCadence, rdma, lldp);
    }

    /**
     * A reader that reuses, for up to {@code refresh}, what changes rarely: each port's GID table, its
     * {@code rate} and {@code link_layer}, the device's identity ({@code fw_ver}, {@code board_id},
     * {@code node_guid}, {@code hca_type}, ...), netdev mapping, PCIe link speed and width (the AER counters stay
     * per sample) and each netdev's FEC encoding; all re-read at once when a port's state
     * (or, for the GID table, link layer) changes. The agent's per-sample cost was dominated by the
     * 255-entry GID tables of real mlx5 ports; one-shot commands keep reading everything fresh.
     * The returned reader keeps that cache (its age is measured with this reader's clock, so set the
     * clock first).
     */
    public HostReader withGidRefresh(Duration refresh) {
        SlowCadenceCache cache = new SlowCadenceCache(refresh, () -> clock.millis());
        return new HostReader(hostRoot, watchdog, files, new InfiniBandClassReader(hostRoot, files, cache), ethtool,
                verbs, deviceInclude, deviceExclude, clock, modules, dcb, qos, cache, rdma, lldp);
    }

    /**
     * A reader that reads each netdev's transceiver at most once per {@code refresh} and reuses it between (the slow
     * cadence, like the GID tables); one-shot commands read it every time.
     */
    public HostReader withModuleRefresh(Duration refresh) {
        return new HostReader(hostRoot, watchdog, files, sysfs, ethtool, verbs, deviceInclude, deviceExclude, clock,
                modules.withRefresh(refresh), dcb, qos, fecCadence, rdma, lldp);
    }

    /**
     * A reader that reads each netdev's LLDP neighbour ({@link LldpReader}) at most once per {@code refresh} and reuses
     * it between, re-read sooner when the port's state changes; {@link Duration#ZERO} (one-shot commands) reads it
     * every sample. Measured with this reader's clock, so set the clock first.
     */
    public HostReader withLldpRefresh(Duration refresh) {
        return new HostReader(hostRoot, watchdog, files, sysfs, ethtool, verbs, deviceInclude, deviceExclude, clock,
                modules, dcb, qos, fecCadence, rdma, lldp.withRefresh(refresh));
    }

    /** A reader whose transceivers come from {@code source} (the ioctl on a live host). */
    public HostReader withModuleSource(ModuleEepromSource source) {
        return new HostReader(hostRoot, watchdog, files, sysfs, ethtool, verbs, deviceInclude, deviceExclude, clock,
                new ModuleReader(source, null, clock::millis), dcb, qos, fecCadence, rdma, lldp);
    }

    /**
     * The transceiver of {@code ifname} (for {@code rdmamon module -i IF}): null when there is none.
     *
     * @throws IOException naming the interface and what failed
     */
    public TransceiverModule readModule(String ifname) throws IOException {
        ModuleReader.Result result = modules.read(ifname, this::runModuleRead);
        if (result.reason() != null) {
            throw new IOException(result.reason());
        }
        return result.module();
    }

    private byte[] runModuleRead(String call, ModuleEepromSource source, String ifname) throws IOException {
        try {
            return watchdog.watch(call, () -> source.read(ifname));
        } catch (StuckReadException e) {
            throw new IOException(e.getMessage(), e);
        }
    }

    /**
     * A reader that takes each device's resources and QPs, and each port's hw counters, from {@code netlink} (root
     * {@code /}); every request under the read deadline. The QPs' owners are read from {@code <root>/proc}; pods are
     * named by UID ({@link PodDirectory#NONE}).
     */
    public HostReader withRdmaNetlink(RdmaNetlink netlink) {
        return withRdmaNetlink(netlink, PodDirectory.NONE);
    }

    /** As {@link #withRdmaNetlink(RdmaNetlink)}, with the pods' names from {@code pods}. */
    public HostReader withRdmaNetlink(RdmaNetlink netlink, PodDirectory pods) {
        return new HostReader(hostRoot, watchdog, files, sysfs, ethtool, verbs, deviceInclude, deviceExclude, clock,
                modules, dcb, qos, fecCadence, new RdmaNetlinkReader(new WatchedRdmaNetlink(netlink, watchdog),
                new WorkloadAttributor(new ProcessFiles(hostRoot), pods)), lldp);
    }

    /**
     * A reader naming the pods behind each device's QPs from {@code pods} (the kubelet's pod-resources); the same
     * reader where no RDMA netlink is read (a captured host root: no QPs to attribute).
     */
    public HostReader withPodDirectory(PodDirectory pods) {
        return !attributesWorkloads() ? this : new HostReader(hostRoot, watchdog, files, sysfs, ethtool, verbs, deviceInclude,
                deviceExclude, clock, modules, dcb, qos, fecCadence,
                rdma.withWorkloads(new WorkloadAttributor(new ProcessFiles(hostRoot), pods)), lldp);
    }

    /** Whether QPs are read (RDMA netlink, root {@code /}) and so attributed to workloads. */
    public boolean attributesWorkloads() {
        return rdma != null;
    }

    /** The clock that stamps samples. */
    public HostReader withClock(Clock clock) {
        return new HostReader(hostRoot, watchdog, files, sysfs, ethtool, verbs, deviceInclude, deviceExclude, clock,
                modules.withClock(clock::millis), dcb, qos, fecCadence, rdma, lldp.withClock(clock::millis));
    }

    /**
     * A reader that reuses each RoCE port's QoS configuration (and {@code etc/nccl.conf}) for up to {@code refresh},
     * re-read sooner when the port's state changes; {@link Duration#ZERO} (one-shot commands) reads it every sample.
     * Measured with this reader's clock, so set the clock first.
     */
    public HostReader withQosRefresh(Duration refresh) {
        return new HostReader(hostRoot, watchdog, files, sysfs, ethtool, verbs, deviceInclude, deviceExclude, clock,
                modules, dcb, qosReader(hostRoot, watchdog, files, dcb, refresh, clock), fecCadence, rdma, lldp);
    }

    /**
     * A reader taking the DCB configuration from {@code source} (root {@code /}: the DCB netlink reader); the QoS
     * reuse interval starts afresh at {@link Duration#ZERO}, so call {@link #withQosRefresh} after this.
     */
    public HostReader withDcbSource(DcbSource source) {
        return new HostReader(hostRoot, watchdog, files, sysfs, ethtool, verbs, deviceInclude, deviceExclude, clock,
                modules, source, qosReader(hostRoot, watchdog, files, source, Duration.ZERO, clock), fecCadence, rdma,
                lldp);
    }

    public Path hostRoot() {
        return hostRoot;
    }

    /** Reader threads started so far (tests: a skipped stuck read starts none). */
    int readerThreadsStarted() {
        return watchdog.threadsStarted();
    }

    /** Reads blocked past the deadline that have not returned yet. */
    int stuckReads() {
        return watchdog.stuckReads();
    }

    /**
     * Names of the devices under {@code sys/class/infiniband} that pass the device filter, sorted;
     * empty when the class is absent.
     *
     * @throws UncheckedIOException naming the directory when it exists but cannot be listed
     */
    public List<String> deviceNames() {
        try {
            return filtered(sysfs.deviceNames());
        } catch (IOException e) {
            throw new UncheckedIOException(relative(sysfs.classDir()) + ": " + SysfsFiles.describe(e), e);
        }
    }

    /**
     * Names of the netdevs under {@code sys/class/net}, sorted; empty when it is absent.
     *
     * @throws UncheckedIOException naming the directory when it exists but cannot be listed
     */
    public List<String> netdevNames() {
        Path netClass = hostRoot.resolve("sys/class/net");
        if (!Files.isDirectory(netClass)) {
            return List.of();
        }
        try (Stream<Path> entries = Files.list(netClass)) {
            return entries.map(p -> p.getFileName().toString()).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(relative(netClass) + ": " + SysfsFiles.describe(e), e);
        }
    }

    /**
     * One full snapshot. Never throws for a device or file problem: each becomes a failed
     * {@link io.rdmamon.protocol.model.SourceStatus} naming the file, and the rest is still read; a capability the host
     * lacks (no DCB, no libibverbs, no ethtool statistics) is an unsupported status, not a failed one.
     * Statuses: one {@code sysfs} per device, one {@code ethtool} per netdev read, one {@code verbs}
     * per device when verbs are used, one {@code rdma-netlink} per device when RDMA netlink is used and the kernel
     * has it, one {@code lldp} per Ethernet netdev whose LLDP neighbour was read or could not be.
     *
     * <p>Returns even when reads never do: each read has {@link #READ_DEADLINE}, and one that passes it is
     * named in its source's status ({@code read stuck for ...}) and skipped by later samples until it
     * returns ({@link ReadWatchdog}). With {@link #MAX_STUCK_READS} reads stuck, the sample has no devices
     * and one failed {@code sysfs} status listing them.
     */
    public HostSample read(String node) {
        long timestamp = clock.millis();
        return watchdog.run(() -> readNow(node, timestamp), reason -> new HostSample(node, timestamp, List.of(),
                List.of(SourceStatus.failed(SOURCE_SYSFS, relative(sysfs.classDir()), reason))));
    }

    private HostSample readNow(String node, long timestamp) {
        try {
            return readDevices(node, timestamp);
        } finally {
            files.sampleEnded();
        }
    }

    private HostSample readDevices(String node, long timestamp) {
        List<IbDevice> devices = new ArrayList<>();
        List<SourceStatus> sources = new ArrayList<>();
        List<String> names;
        try {
            names = filtered(sysfs.deviceNames());
        } catch (IOException e) {
            sources.add(SourceStatus.failed(SOURCE_SYSFS, relative(sysfs.classDir()),
                    relative(sysfs.classDir()) + ": " + SysfsFiles.describe(e)));
            return new HostSample(node, timestamp, devices, sources);
        }
        String verbsUnavailable = verbs == null ? null : verbs.unavailableReason();
        // no device, no request: a host without RDMA costs no netlink socket per sample
        RdmaNetlinkReader.Sample rdmaSample = rdma == null || names.isEmpty() ? null : rdma.sample();
        if (rdmaSample != null && rdmaSample.absent()) {
            rdmaSample = null; // a kernel without RDMA netlink: an absent capability, read as a captured root is
        }
        Map<String, EthtoolStats> ethtoolByNetdev = new HashMap<>();
        Map<String, ModuleReader.Result> modulesByNetdev = new HashMap<>();
        Map<String, LldpReader.Result> neighborsByNetdev = new HashMap<>();
        for (String name : names) {
            RdmaNetlinkReader.Device rdmaDevice = rdmaSample == null ? null : rdmaSample.device(name);
            DeviceReading reading;
            try {
                reading = sysfs.readDevice(name, rdmaDevice);
            } catch (RuntimeException e) {
                // readDevice turns every file's failure into a problem; this is the net under a bug in it
                sources.add(SourceStatus.failed(SOURCE_SYSFS, name, relative(sysfs.classDir().resolve(name)) + ": " + e));
                continue;
            }
            sources.add(reading.problems().isEmpty()
                    ? SourceStatus.ok(SOURCE_SYSFS, name)
                    : SourceStatus.failed(SOURCE_SYSFS, name, String.join("; ", reading.problems())));
            if (reading.device() == null) {
                continue;
            }
            IbDevice device = withQos(withOtherSources(reading.device(), verbsUnavailable, ethtoolByNetdev,
                    modulesByNetdev, neighborsByNetdev, sources), sources);
            if (rdmaDevice != null) {
                device = device.withResources(rdmaDevice.resources());
                sources.add(rdmaDevice.status());
            }
            devices.add(device);
        }
        return new HostSample(node, timestamp, devices, sources, ncclConf(sources), topology(sources));
    }

    /** The GPU↔NIC topology (null without GPU); a failure is the {@code topology} source's, never the sample's. */
    private GpuTopology topology(List<SourceStatus> sources) {
        try {
            return topology.current();
        } catch (RuntimeException e) {
            sources.add(SourceStatus.failed(SOURCE_TOPOLOGY, "pci", "sys/bus/pci/devices: " + e));
            return null;
        }
    }

    /**
     * The ethtool statistics of one netdev (for {@code rdmamon perf -i IF}).
     *
     * @throws IOException naming the interface when it does not exist or cannot be read
     */
    public EthtoolStats readNetdev(String ifname) throws IOException {
        return EthtoolStats.of(ifname, ethtool.statistics(ifname));
    }

    private IbDevice withOtherSources(IbDevice device, String verbsUnavailable,
                                      Map<String, EthtoolStats> ethtoolByNetdev,
                                      Map<String, ModuleReader.Result> modulesByNetdev,
                                      Map<String, LldpReader.Result> neighborsByNetdev, List<SourceStatus> sources) {
        List<String> verbsProblems = new ArrayList<>();
        List<IbPort> ports = new ArrayList<>();
        for (IbPort port : device.ports()) {
            EthtoolStats stats = port.netdev() == null ? null
                    : ethtoolByNetdev.computeIfAbsent(port.netdev(), netdev -> readEthtool(netdev, sources));
            VerbsPortAttributes attributes = null;
            if (verbs != null && verbsUnavailable == null) {
                String call = "ibv_query_port(" + device.name() + ", " + port.port() + ")";
                try {
                    attributes = watchdog.watch(call, () -> verbs.queryPort(device.name(), port.port()));
                } catch (VerbsException | StuckReadException e) {
                    verbsProblems.add(call + ": " + e.getMessage());
                } catch (RuntimeException e) {
                    verbsProblems.add(call + ": " + e);
                }
            }
            IbPort.Builder withSources = port.toBuilder().ethtool(stats).verbs(attributes);
            if (port.netdev() != null) {
                withSources.module(modulesByNetdev.computeIfAbsent(port.netdev(), netdev -> readModule(netdev, sources))
                        .module()).fec(readFec(port, sources)).neighbor(readNeighbor(port, neighborsByNetdev, sources));
            }
            ports.add(withSources.build());
        }
        if (verbs != null) {
            // verbs unavailable = no libibverbs or a kernel without uverbs: the host lacks them, nothing failed
            sources.add(verbsUnavailable != null
                    ? SourceStatus.unsupported(SOURCE_VERBS, device.name(), verbsUnavailable)
                    : verbsProblems.isEmpty() ? SourceStatus.ok(SOURCE_VERBS, device.name())
                    : SourceStatus.failed(SOURCE_VERBS, device.name(), String.join("; ", verbsProblems)));
        }
        return device.withPorts(ports);
    }

    /**
     * The transceiver of {@code netdev}: a {@code module} status when one was decoded (ok), the read failed (failed,
     * naming it) or this host cannot read the module (unsupported); none when the netdev has no module (no cage, an
     * empty one, no capture).
     */
    private ModuleReader.Result readModule(String netdev, List<SourceStatus> sources) {
        ModuleReader.Result result = modules.read(netdev, this::runModuleRead);
        if (result.failure() != null) {
            sources.add(SourceStatus.failed(SOURCE_MODULE, netdev, result.failure()));
        } else if (result.unsupported() != null) {
            sources.add(SourceStatus.unsupported(SOURCE_MODULE, netdev, result.unsupported()));
        } else if (result.module() != null) {
            sources.add(SourceStatus.ok(SOURCE_MODULE, netdev));
        }
        return result;
    }

    /**
     * The FEC encoding of {@code port}'s netdev, kept on the slow cadence while the port's state is unchanged (a link
     * that retrains may negotiate another encoding); null when the driver has none. A failed read is a failed
     * {@code fec} status naming it, and is not kept.
     */
    private FecMode readFec(IbPort port, List<SourceStatus> sources) {
        String netdev = port.netdev();
        SlowCadenceCache.Reader<FecMode> read = () -> {
            String call = "ethtool --show-fec " + netdev;
            try {
                return new SlowCadenceCache.Read<>(watchdog.watch(call, () -> ethtool.fec(netdev)), false);
            } catch (StuckReadException e) {
                sources.add(SourceStatus.failed(SOURCE_FEC, netdev, call + ": " + e.getMessage()));
            } catch (IOException e) {
                sources.add(SourceStatus.failed(SOURCE_FEC, netdev, e.getMessage()));
            } catch (RuntimeException e) {
                sources.add(SourceStatus.failed(SOURCE_FEC, netdev, call + ": " + e));
            }
            return new SlowCadenceCache.Read<>(null, true);
        };
        return fecCadence == null ? read.read().value()
                : fecCadence.get(hostRoot.resolve("ethtool").resolve(netdev).resolve("fec"),
                        Integer.toString(port.stateId()), read);
    }

    /**
     * The LLDP neighbour of {@code port}'s netdev: none on an InfiniBand port (LLDP is an Ethernet protocol). One
     * {@code lldp} status per netdev read (two ports on one netdev share its reading): ok when a capture or lldpctl's
     * answer was read, with or without a neighbour; failed when it did not parse or lldpctl failed; unsupported when a
     * live host has no lldpctl; none when a captured root has no capture for it.
     */
    private LldpNeighbor readNeighbor(IbPort port, Map<String, LldpReader.Result> byNetdev,
                                      List<SourceStatus> sources) {
        if ("InfiniBand".equals(port.linkLayer())) {
            return null;
        }
        return byNetdev.computeIfAbsent(port.netdev(), netdev -> {
            LldpReader.Result result = lldp.read(netdev, Integer.toString(port.stateId()),
                    (call, read) -> watchdog.watch(call, read::read));
            if (result.status() != null) {
                sources.add(result.status());
            }
            return result;
        }).neighbor();
    }

    /**
     * Null (and a failed status, or an unsupported one for a driver without statistics) when the statistics cannot be
     * read; the port is still reported.
     */
    private EthtoolStats readEthtool(String netdev, List<SourceStatus> sources) {
        String call = "ethtool -S " + netdev;
        try {
            EthtoolStats stats = ethtoolViews.of(netdev, watchdog.watch(call, () -> ethtool.sample(netdev)));
            sources.add(SourceStatus.ok(SOURCE_ETHTOOL, netdev));
            return stats;
        } catch (UnsupportedCapabilityException e) {
            sources.add(SourceStatus.unsupported(SOURCE_ETHTOOL, netdev, e.getMessage()));
        } catch (StuckReadException e) {
            sources.add(SourceStatus.failed(SOURCE_ETHTOOL, netdev, call + ": " + e.getMessage()));
        } catch (IOException e) {
            sources.add(SourceStatus.failed(SOURCE_ETHTOOL, netdev, e.getMessage()));
        } catch (RuntimeException e) {
            // the ioctl binding or a parser bug: costs this netdev only
            sources.add(SourceStatus.failed(SOURCE_ETHTOOL, netdev, call + ": " + e));
        }
        return null;
    }

    /**
     * {@code device} with the QoS configuration of each RoCE port that has a netdev ({@link PortTransport}), one
     * {@code qos} status per netdev (two ports on one netdev share its reading).
     */
    private IbDevice withQos(IbDevice device, List<SourceStatus> sources) {
        List<IbPort> ports = new ArrayList<>(device.ports().size());
        boolean changed = false;
        for (IbPort port : device.ports()) {
            if (port.netdev() == null || PortTransport.of(device, port) != PortTransport.ROCE) {
                ports.add(port);
                continue;
            }
            QosReader.PortQos read = qos.port(device.name(), port.port(), port.netdev(),
                    port.state() + "/" + port.physState());
            if (read.status() != null && !sources.contains(read.status())) {
                sources.add(read.status());
            }
            ports.add(read.config() == null ? port : port.toBuilder().qos(read.config()).build());
            changed |= read.config() != null;
        }
        return !changed ? device : device.withPorts(ports);
    }

    /** {@code etc/nccl.conf}'s settings, null when there is none; a status only when the file exists. */
    private Map<String, String> ncclConf(List<SourceStatus> sources) {
        QosReader.NcclConf conf = qos.ncclConf();
        if (conf.status() != null) {
            sources.add(conf.status());
        }
        return conf.entries();
    }

    private static QosReader qosReader(Path root, ReadWatchdog watchdog, SmallFileReader files, DcbSource dcb,
                                       Duration refresh, Clock clock) {
        // one watched read per netdev: a netlink request or the capture files of one interface
        DcbSource watched = new DcbSource() {
            @Override
            public QosConfig read(String ifname) throws IOException {
                return readParts(ifname).config();
            }

            @Override
            public Reading readParts(String ifname) throws IOException {
                return watchdog.watch("DCB of " + ifname, () -> dcb.readParts(ifname));
            }
        };
        return new QosReader(root, files, watched, refresh, clock::millis);
    }

    private List<String> filtered(List<String> names) {
        return names.stream()
                .filter(n -> deviceInclude == null || deviceInclude.matcher(n).matches())
                .filter(n -> deviceExclude == null || !deviceExclude.matcher(n).matches())
                .toList();
    }

    private String relative(Path path) {
        return path.startsWith(hostRoot) ? hostRoot.relativize(path).toString() : path.toString();
    }

    private static Path validRoot(Path hostRoot) throws HostRootException {
        if (hostRoot == null) {
            throw new HostRootException("host root not given");
        }
        Path root = hostRoot.toAbsolutePath().normalize();
        if (!Files.exists(root)) {
            throw new HostRootException("host root " + hostRoot + " does not exist");
        }
        if (!Files.isDirectory(root)) {
            throw new HostRootException("host root " + hostRoot + " is not a directory");
        }
        return root;
    }
}
