package io.rdmamon.agent.host;

import io.rdmamon.agent.ethtool.CapturedEthtoolStatsSource;
import io.rdmamon.agent.ethtool.EthtoolStatsSource;
import io.rdmamon.agent.ethtool.IoctlEthtoolStatsSource;
import io.rdmamon.agent.devlink.CapturedDevlinkHealthReader;
import io.rdmamon.agent.devlink.DevlinkHealthReader;
import io.rdmamon.agent.devlink.HealthPlacement;
import io.rdmamon.agent.devlink.NetlinkDevlinkHealthReader;
import io.rdmamon.agent.kmsg.CapturedKmsgFeed;
import io.rdmamon.agent.kmsg.DevKmsgFeed;
import io.rdmamon.agent.kmsg.KernelEventLog;
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
import io.rdmamon.agent.rdma.RdmaNetlinkReader;
import io.rdmamon.agent.sysfs.AttributeFiles;
import io.rdmamon.agent.sysfs.DeviceReading;
import io.rdmamon.agent.sysfs.InfiniBandClassReader;
import io.rdmamon.agent.sysfs.SlowCadenceCache;
import io.rdmamon.agent.sysfs.SmallFileReader;
import io.rdmamon.agent.sysfs.SysfsFiles;
import io.rdmamon.agent.topology.GpuTopologies;
import io.rdmamon.agent.topology.TopologyReader;
import io.rdmamon.agent.verbs.VerbsPortReader;
import io.rdmamon.agent.workload.PodDirectory;
import io.rdmamon.agent.workload.ProcessFiles;
import io.rdmamon.agent.workload.WorkloadAttributor;
import io.rdmamon.nativeio.NativeSupport;
import io.rdmamon.nativeio.rdma.NetlinkRdma;
import io.rdmamon.nativeio.rdma.RdmaNetlink;
import io.rdmamon.protocol.json.StrictJson;
import io.rdmamon.protocol.model.EthtoolStats;
import io.rdmamon.protocol.model.HostSample;
import io.rdmamon.protocol.model.IbDevice;
import io.rdmamon.protocol.model.IbPort;
import io.rdmamon.protocol.model.NicHealthReporter;
import io.rdmamon.protocol.model.QosConfig;
import io.rdmamon.protocol.model.SourceStatus;
import io.rdmamon.protocol.model.TransceiverModule;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Reads everything rdmamon knows about a host below a host root (docs/architecture.md "Host root"): the InfiniBand
 * class in sysfs (the
 * devices and ports every other source completes), then the {@link Source}s registered in {@link Builder#build()}:
 * each port's netdev ({@link PortSource}: ethtool statistics, transceiver, FEC, LLDP neighbour, QoS), each device
 * ({@link DeviceSource}: libibverbs) and the host ({@link HostSource}: {@code etc/nccl.conf}, the GPU↔NIC topology).
 * Every read runs through {@link SourceRun}, which records a source's failure the same way for all of them, so one
 * failing source costs only itself (docs/collector.md "Adding a source").
 *
 * <p>All methods block on file and ioctl I/O: call them from a worker thread, never an event loop. Built by a
 * {@link Builder}, whose settings may be given in any order.
 */
public final class HostReader {
    static final String SOURCE_SYSFS = "sysfs";
    /** The kernel's log device (Documentation/ABI/testing/dev-kmsg). */
    static final String DEV_KMSG = "/dev/kmsg";
    /**
     * How long one read (a sysfs file, a netdev's ethtool statistics, a verbs port query) may block
     * before the sample goes on without it: a read slower than the agent's 1 s sampling interval is of
     * no use to the stream, and a healthy one takes well under a millisecond.
     */
    static final Duration READ_DEADLINE = Duration.ofSeconds(1);
    /** Reads left blocked at once (each holds one daemon thread) before the host is not read at all. */
    static final int MAX_STUCK_READS = 8;

    private final Builder settings;
    private final Path hostRoot;
    /** Every blocking read goes through it, and it knows the reads still stuck. */
    private final ReadWatchdog watchdog;
    /** The sysfs files, read under {@link #watchdog}. */
    private final SmallFileReader files;
    private final InfiniBandClassReader sysfs;
    private final EthtoolStatsSource ethtool;
    private final Clock clock;
    /** Resources, QPs and port hw counters over RDMA netlink; null when not used (any root but {@code /}). */
    private final RdmaNetlinkReader rdma;
    private final ModuleSource modules;
    private final List<PortSource> portSources;
    private final List<DeviceSource> deviceSources;
    private final List<HostSource> hostSources;
    /** The sysfs device reading as a source: its failures are recorded as any source's. */
    private final Source sysfsSource;
    /** The RDMA netlink dumps of a sample, as a source. */
    private final Source rdmaSource = named(RdmaNetlinkReader.SOURCE, subject -> "RDMA netlink dump");
    private volatile Map<String, Duration> lastDurations = Map.of();
    /** The kernel log, read after each sample; null where a captured root has no capture of it. */
    private final KmsgSource kmsg;

    private HostReader(Builder settings, ReadWatchdog watchdog, SmallFileReader files, InfiniBandClassReader sysfs,
                       RdmaNetlinkReader rdma, ModuleSource modules, List<PortSource> portSources,
                       List<DeviceSource> deviceSources, List<HostSource> hostSources) {
        this.settings = settings;
        this.hostRoot = settings.root;
        this.watchdog = watchdog;
        this.files = files;
        this.sysfs = sysfs;
        this.ethtool = settings.ethtool;
        this.clock = settings.clock;
        this.rdma = rdma;
        this.modules = modules;
        this.portSources = List.copyOf(portSources);
        this.deviceSources = List.copyOf(deviceSources);
        this.hostSources = List.copyOf(hostSources);
        this.sysfsSource = named(SOURCE_SYSFS, device -> relative(sysfs.classDir().resolve(device)));
        this.kmsg = settings.kmsg;
    }

    /**
     * A reader for {@code hostRoot} as {@link #builder} configures it by default: one-shot (everything read fresh
     * every sample), all devices.
     *
     * @throws HostRootException when the root does not exist or is not a directory (message names it)
     */
    public static HostReader forRoot(Path hostRoot) throws HostRootException {
        return builder(hostRoot).build();
    }

    /**
     * The settings of a reader for {@code hostRoot}. With root {@code /} ethtool statistics and transceivers come from
     * the SIOCETHTOOL ioctl, verbs from libibverbs, device resources, QPs and port hw counters from RDMA netlink, DCB
     * from DCB netlink and LLDP from lldpctl when not captured; otherwise from the captures under the root
     * ({@code <root>/ethtool/<if>/statistics}, {@code dcb/}, {@code lldp/}), and neither verbs nor RDMA netlink are
     * used.
     *
     * @throws HostRootException when the root does not exist or is not a directory (message names it)
     */
    public static Builder builder(Path hostRoot) throws HostRootException {
        return new Builder(validRoot(hostRoot));
    }

    /**
     * The settings of a {@link HostReader}: each given once, in any order (the clock and refresh intervals are applied
     * when {@link #build()} builds the sources, not when they are set). Not thread-safe; build on one thread.
     */
    public static final class Builder {
        private final Path root;
        private final boolean live;
        private SmallFileReader files;
        private Duration readDeadline = READ_DEADLINE;
        private SourceFaults faults = SourceFaults.NONE;
        private EthtoolStatsSource ethtool;
        private VerbsPortReader verbs;
        private boolean verbsGiven;
        private ModuleEepromSource moduleSource;
        private DcbSource dcb;
        private RdmaNetlink rdmaNetlink;
        private PodDirectory pods = PodDirectory.NONE;
        private Pattern deviceInclude;
        private Pattern deviceExclude;
        private Clock clock = Clock.systemUTC();
        private Duration gidRefresh;
        private Duration moduleRefresh;
        private Duration qosRefresh = Duration.ZERO;
        private Duration lldpRefresh = Duration.ZERO;
        /** The kernel log source: made by the first build, shared by the readers rebuilt from these settings. */
        private KmsgSource kmsg;

        private Builder(Path root) {
            this.root = root;
            this.live = root.getParent() == null;
        }

        private Builder copy() {
            Builder copy = new Builder(root);
            copy.files = files;
            copy.readDeadline = readDeadline;
            copy.faults = faults;
            copy.ethtool = ethtool;
            copy.verbs = verbs;
            copy.verbsGiven = verbsGiven;
            copy.moduleSource = moduleSource;
            copy.dcb = dcb;
            copy.rdmaNetlink = rdmaNetlink;
            copy.pods = pods;
            copy.deviceInclude = deviceInclude;
            copy.deviceExclude = deviceExclude;
            copy.clock = clock;
            copy.gidRefresh = gidRefresh;
            copy.moduleRefresh = moduleRefresh;
            copy.qosRefresh = qosRefresh;
            copy.lldpRefresh = lldpRefresh;
            copy.kmsg = kmsg;
            return copy;
        }

        /** The sysfs files read through {@code files} (tests: a filesystem change between two reads). */
        Builder files(SmallFileReader files) {
            this.files = files;
            return this;
        }

        /** {@code faults} before every source's read: for tests that prove one failing source costs only itself. */
        public Builder faults(SourceFaults faults) {
            this.faults = faults;
            return this;
        }

        /** Another deadline per blocking read than {@link #READ_DEADLINE}. */
        public Builder readDeadline(Duration readDeadline) {
            this.readDeadline = readDeadline;
            return this;
        }

        /** The ethtool statistics (and FEC) from {@code ethtool} (tests, the simulator, captures replayed otherwise).
         * */
        public Builder ethtool(EthtoolStatsSource ethtool) {
            this.ethtool = ethtool;
            return this;
        }

        /** The verbs from {@code verbs}; null: no verbs at all (no verbs field, no verbs status). */
        public Builder verbs(VerbsPortReader verbs) {
            this.verbs = verbs;
            this.verbsGiven = true;
            return this;
        }

        /** The transceivers from {@code source} (the ioctl on a live host). */
        public Builder moduleSource(ModuleEepromSource source) {
            this.moduleSource = source;
            return this;
        }

        /** The DCB configuration from {@code source} (root {@code /}: the DCB netlink reader). */
        public Builder dcbSource(DcbSource source) {
            this.dcb = source;
            return this;
        }

        /**
         * Each device's resources and QPs, and each port's hw counters, from {@code netlink}; every request under the
         * read deadline. The QPs' owners are read from {@code <root>/proc}.
         */
        public Builder rdmaNetlink(RdmaNetlink netlink) {
            this.rdmaNetlink = netlink;
            return this;
        }

        /** The pods behind the QPs named from {@code pods} (default {@link PodDirectory#NONE}: by UID). */
        public Builder pods(PodDirectory pods) {
            this.pods = pods;
            return this;
        }

        /**
         * Only devices whose whole name matches {@code include} (null: all) and not {@code exclude}
         * (null: none), like node_exporter's {@code --collector.infiniband.device-include/-exclude}
         * but anchored, so {@code mlx5_1} does not also select {@code mlx5_10}.
         */
        public Builder deviceFilter(Pattern include, Pattern exclude) {
            this.deviceInclude = include;
            this.deviceExclude = exclude;
            return this;
        }

        /** The clock that stamps samples and times every refresh interval. */
        public Builder clock(Clock clock) {
            this.clock = clock;
            return this;
        }

        /**
         * Reuse, for up to {@code refresh}, what changes rarely: each port's GID table, its {@code rate} and
         * {@code link_layer}, the device's identity ({@code fw_ver}, {@code board_id}, {@code node_guid},
         * {@code hca_type}, ...), netdev mapping, PCIe link speed and width (the AER counters stay per sample) and each
         * netdev's FEC encoding; all re-read at once when a port's state (or, for the GID table, link layer) changes.
         * The agent's per-sample cost was dominated by the 255-entry GID tables of real mlx5 ports; one-shot commands
         * keep reading everything fresh.
         */
        public Builder gidRefresh(Duration refresh) {
            this.gidRefresh = refresh;
            return this;
        }

        /** Read each netdev's transceiver at most once per {@code refresh} and reuse it between. */
        public Builder moduleRefresh(Duration refresh) {
            this.moduleRefresh = refresh;
            return this;
        }

        /**
         * Reuse each RoCE port's QoS configuration (and {@code etc/nccl.conf}) for up to {@code refresh}, re-read
         * sooner
         * when the port's state changes; the GPU↔NIC topology is reused as long. {@link Duration#ZERO} (the default):
         * read every sample.
         */
        public Builder qosRefresh(Duration refresh) {
            this.qosRefresh = refresh;
            return this;
        }

        /**
         * Read each netdev's LLDP neighbour at most once per {@code refresh} and reuse it between, re-read sooner when
         * the port's state changes; {@link Duration#ZERO} (the default): every sample.
         */
        public Builder lldpRefresh(Duration refresh) {
            this.lldpRefresh = refresh;
            return this;
        }

        /** The reader, its sources built from these settings and registered in the order their statuses come. */
        public HostReader build() {
            // resolved here, once: a copy (withPodDirectory) reuses what was loaded and the descriptors kept
            if (files == null) {
                files = AttributeFiles.forRoot(root);
            }
            if (ethtool == null) {
                ethtool = live ? IoctlEthtoolStatsSource.loadNative() : new CapturedEthtoolStatsSource(root);
            }
            if (!verbsGiven) {
                verbs(live ? VerbsPortReader.loadNative() : null);
            }
            if (moduleSource == null) {
                moduleSource = live ? IoctlModuleEepromSource.loadNative() : new CapturedModuleEepromSource(root);
            }
            if (dcb == null) {
                dcb = live ? NetlinkDcbSource.loadNative() : new CapturedDcbSource(root);
            }
            // A captured DCB read parses its JSON inside the read deadline, and a JVM's first parse loads the JSON
            // library's classes: seconds on a loaded machine, which the watchdog would take for a stuck read and
            // skip that netdev's QoS. Loaded here, before any deadline runs.
            loadJsonParser();
            if (rdmaNetlink == null && live) {
                rdmaNetlink = new NetlinkRdma();
            }
            ReadWatchdog watchdog = new ReadWatchdog(readDeadline, MAX_STUCK_READS, key -> key instanceof Path path
                    && path.startsWith(root) ? root.relativize(path).toString() : key.toString());
            SmallFileReader watched = watched(files, watchdog);
            SlowCadenceCache cadence = gidRefresh == null ? null : new SlowCadenceCache(gidRefresh, clock::millis);
            InfiniBandClassReader sysfs = new InfiniBandClassReader(root, watched, cadence);
            QosReader qos = new QosReader(root, watched, watched(dcb, watchdog), qosRefresh, clock::millis);
            ModuleSource modules = new ModuleSource(new ModuleReader(moduleSource, moduleRefresh, clock::millis),
                    watchdog);
            // on a live host lldpd answers for a netdev without a capture; elsewhere only captures count
            LldpReader lldp = new LldpReader(root, live ? LldpctlCommand.standard() : null).withClock(clock::millis)
                    .withRefresh(lldpRefresh);
            RdmaNetlinkReader rdma = rdmaNetlink == null ? null : new RdmaNetlinkReader(
                    new WatchedRdmaNetlink(rdmaNetlink, watchdog), new WorkloadAttributor(new ProcessFiles(root), pods));
            List<PortSource> portSources = List.of(new EthtoolSource(ethtool, watchdog), modules,
                    new FecSource(root, ethtool, watchdog, cadence), new LldpSource(root, lldp, watchdog),
                    new QosSource(qos));
            List<DeviceSource> deviceSources = verbs == null ? List.of() : List.of(new VerbsSource(verbs, watchdog));
            List<HostSource> hostSources = new ArrayList<>(List.of(new NcclConfSource(qos),
                    new TopologySource(new GpuTopologies(root, new TopologyReader(root),
                            Duration.ofMillis(qos.refreshMillis()), clock::millis))));
            DevlinkHealthReader devlink = devlinkHealthReader();
            if (devlink != null) {
                hostSources.add(new DevlinkHealthSource(devlink));
            }
            if (kmsg == null) {
                kmsg = kmsgSource();
            }
            return new HostReader(copy(), watchdog, watched, sysfs, rdma, modules, portSources, deviceSources,
                    hostSources);
        }

        /**
         * devlink health: the kernel's dump on a live host, the capture under a root that has a {@code devlink}
         * directory (a root without one predates the capture: no source, as for {@code kmsg}).
         */
        private DevlinkHealthReader devlinkHealthReader() {
            if (live) {
                return NetlinkDevlinkHealthReader.loadNative();
            }
            return Files.isDirectory(root.resolve("devlink")) ? new CapturedDevlinkHealthReader(root) : null;
        }

        /**
         * The kernel log: {@code /dev/kmsg} on a live host (unsupported without the native binding), the capture
         * {@code <root>/kmsg} elsewhere; null where a captured root has none.
         */
        private KmsgSource kmsgSource() {
            if (live) {
                String reason = NativeSupport.unsupportedReason().orElse(null);
                return new KmsgSource(new KernelEventLog(new DevKmsgFeed(DEV_KMSG)), DEV_KMSG, clock::millis,
                        reason);
            }
            Path capture = root.resolve("kmsg");
            return Files.isRegularFile(capture) ? new KmsgSource(new KernelEventLog(new CapturedKmsgFeed(capture)),
                    "kmsg", clock::millis, null) : null;
        }
    }

    /** One small document through the JSON parser every capture uses, so that its classes are loaded. */
    private static void loadJsonParser() {
        try {
            StrictJson.mapper().readTree("{\"loaded\":[1,\"a\",true]}");
        } catch (IOException e) {
            throw new UncheckedIOException("the JSON parser refused a constant document", e);
        }
    }

    /** {@code files} with every read under {@code watchdog}'s deadline. */
    private static SmallFileReader watched(SmallFileReader files, ReadWatchdog watchdog) {
        return new SmallFileReader() {
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
    }

    /** {@code dcb} with one watched read per netdev: a netlink request or the capture files of one interface. */
    private static DcbSource watched(DcbSource dcb, ReadWatchdog watchdog) {
        return new DcbSource() {
            @Override
            public QosConfig read(String ifname) throws IOException {
                return readParts(ifname).config();
            }

            @Override
            public Reading readParts(String ifname) throws IOException {
                return watchdog.watch("DCB of " + ifname, () -> dcb.readParts(ifname));
            }
        };
    }

    /** A source for the framework's net only: its name and what its failures are blamed on. */
    private static Source named(String name, UnaryOperator<String> culprit) {
        return new Source() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public String culprit(String subject) {
                return culprit.apply(subject);
            }
        };
    }

    /**
     * A reader naming the pods behind each device's QPs from {@code pods} (the kubelet's pod-resources); the same
     * reader where no RDMA netlink is read (a captured host root: no QPs to attribute). The returned reader is built
     * afresh from this one's settings: use it instead of this one.
     */
    public HostReader withPodDirectory(PodDirectory pods) {
        return !attributesWorkloads() ? this : settings.copy().pods(pods).build();
    }

    /** Whether QPs are read (RDMA netlink, root {@code /}) and so attributed to workloads. */
    public boolean attributesWorkloads() {
        return rdma != null;
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
     * How long each source's reads took in the last sample, by source name in the order first read (empty before the
     * first sample, or when the host was not read at all).
     */
    public Map<String, Duration> lastSourceDurations() {
        return lastDurations;
    }

    /** The names of the registered sources, in the order they read (a name two sources share appears once). */
    public List<String> sourceNames() {
        LinkedHashSet<String> names = new LinkedHashSet<>();
        names.add(sysfsSource.name());
        if (rdma != null) {
            names.add(rdmaSource.name());
        }
        deviceSources.forEach(s -> names.add(s.name()));
        portSources.forEach(s -> names.add(s.name()));
        hostSources.forEach(s -> names.add(s.name()));
        if (kmsg != null) {
            names.add(kmsg.name());
        }
        return List.copyOf(names);
    }

    /**
     * The transceiver of {@code ifname} (for {@code rdmamon module -i IF}): null when there is none.
     *
     * @throws IOException naming the interface and what failed
     */
    public TransceiverModule readModule(String ifname) throws IOException {
        ModuleReader.Result result = modules.read(ifname);
        if (result.reason() != null) {
            throw new IOException(result.reason());
        }
        return result.module();
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
        HostSample sample = watchdog.run(() -> readNow(node, timestamp), reason -> new HostSample(node, timestamp,
                List.of(), List.of(SourceStatus.failed(SOURCE_SYSFS, relative(sysfs.classDir()), reason))));
        return kmsg == null ? sample : kmsg.complete(sample, new SourceRun(watchdog, settings.faults));
    }

    private HostSample readNow(String node, long timestamp) {
        try {
            return readDevices(node, timestamp);
        } finally {
            files.sampleEnded();
        }
    }

    private HostSample readDevices(String node, long timestamp) {
        SourceRun run = new SourceRun(watchdog, settings.faults);
        List<IbDevice> devices = new ArrayList<>();
        List<String> names;
        try {
            names = filtered(sysfs.deviceNames());
        } catch (IOException e) {
            run.add(SourceStatus.failed(SOURCE_SYSFS, relative(sysfs.classDir()),
                    relative(sysfs.classDir()) + ": " + SysfsFiles.describe(e)));
            return new HostSample(node, timestamp, devices, run.statuses());
        }
        deviceSources.forEach(source -> run.read(source, "host", null, () -> {
            source.sampleStarted();
            return null;
        }));
        // no device, no request: a host without RDMA costs no netlink socket per sample
        RdmaNetlinkReader.Sample rdmaSample = rdma == null || names.isEmpty() ? null
                : run.read(rdmaSource, "host", null, rdma::sample);
        if (rdmaSample != null && rdmaSample.absent()) {
            rdmaSample = null; // a kernel without RDMA netlink: an absent capability, read as a captured root is
        }
        // one reading per netdev and source a sample: two ports on one netdev share it (and its status)
        Map<PortSource, Map<String, UnaryOperator<IbPort>>> partsByNetdev = new HashMap<>();
        for (String name : names) {
            RdmaNetlinkReader.Device rdmaDevice = rdmaSample == null ? null : rdmaSample.device(name);
            // readDevice turns every file's failure into a problem; this is the net under a bug in it
            DeviceReading reading = run.read(sysfsSource, name, null, () -> sysfs.readDevice(name, rdmaDevice));
            if (reading == null) {
                continue;
            }
            run.add(reading.problems().isEmpty()
                    ? SourceStatus.ok(SOURCE_SYSFS, name)
                    : SourceStatus.failed(SOURCE_SYSFS, name, String.join("; ", reading.problems())));
            if (reading.device() == null) {
                continue;
            }
            IbDevice device = withPortSources(reading.device(), partsByNetdev, run);
            for (DeviceSource source : deviceSources) {
                IbDevice read = device;
                device = run.read(source, device.name(), device, () -> source.read(read, run::add));
            }
            if (rdmaDevice != null) {
                device = device.withResources(rdmaDevice.resources());
                run.add(rdmaDevice.status());
            }
            devices.add(device);
        }
        HostParts host = new HostParts();
        for (HostSource source : hostSources) {
            run.read(source, source.subject(), null, () -> {
                source.read(host, run::add);
                return null;
            });
        }
        lastDurations = run.durations();
        List<NicHealthReporter> health = host.healthReporters() == null ? null
                : HealthPlacement.place(devices, host.healthReporters());
        return new HostSample(node, timestamp, devices, run.statuses(), host.ncclConf(), host.topology(), null,
                health);
    }

    /**
     * {@code device} with each port completed by every port source, in registration order; a netdev is read once per
     * source and sample ({@code partsByNetdev}), a port without one not at all.
     */
    private IbDevice withPortSources(IbDevice device, Map<PortSource, Map<String, UnaryOperator<IbPort>>> partsByNetdev,
                                     SourceRun run) {
        List<IbPort> ports = new ArrayList<>(device.ports().size());
        for (IbPort port : device.ports()) {
            IbPort completed = port;
            if (port.netdev() != null) {
                for (PortSource source : portSources) {
                    UnaryOperator<IbPort> part = partsByNetdev.computeIfAbsent(source, s -> new HashMap<>())
                            .computeIfAbsent(port.netdev(), netdev -> run.read(source, netdev, UnaryOperator.identity(),
                                    () -> source.read(device, port, run::add)));
                    completed = part.apply(completed);
                }
            }
            ports.add(completed);
        }
        return device.withPorts(ports);
    }

    /**
     * The ethtool statistics of one netdev (for {@code rdmamon perf -i IF}).
     *
     * @throws IOException naming the interface when it does not exist or cannot be read
     */
    public EthtoolStats readNetdev(String ifname) throws IOException {
        return EthtoolStats.of(ifname, ethtool.statistics(ifname));
    }

    private List<String> filtered(List<String> names) {
        return names.stream()
                .filter(n -> settings.deviceInclude == null || settings.deviceInclude.matcher(n).matches())
                .filter(n -> settings.deviceExclude == null || !settings.deviceExclude.matcher(n).matches())
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
