package io.rdmamon.agent.sysfs;

import io.rdmamon.agent.sysfs.SysfsFiles.Failure;
import io.rdmamon.protocol.model.CounterMap;
import io.rdmamon.protocol.model.GidEntry;
import io.rdmamon.protocol.model.IbDevice;
import io.rdmamon.protocol.model.IbPort;
import io.rdmamon.protocol.model.NetdevCounters;
import io.rdmamon.protocol.model.PciFunction;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Reads {@code <root>/sys/class/infiniband} (kernel layout in docs/reference/sysfs-and-counters.md §1; ABI in
 * Documentation/ABI/stable/sysfs-class-infiniband). Reading is kept apart from parsing: this class
 * walks directories and reads files, {@link SysfsParsers} turns text into values.
 *
 * <p>Never throws for a file: a file that cannot be read or parsed (garbage, a number beyond 64 bits,
 * NUL bytes, bytes that are not UTF-8, or any exception a parser throws) leaves its field absent and
 * adds one line naming that file to the device's problems; the rest of the device is still read.
 * Required attributes ({@code fw_ver}, the port's {@code state}, {@code phys_state}, {@code rate},
 * {@code link_layer}) are problems when missing; optional ones are not: {@code hca_type},
 * {@code board_id} (mlx only), {@code counters/} (only drivers with {@code process_mad}) and
 * {@code node_type}, which real captured trees lack (prometheus/procfs and node_exporter fixtures).
 */
public final class InfiniBandClassReader {
    private static final System.Logger LOG = System.getLogger(InfiniBandClassReader.class.getName());
    /** The data counters count octets divided by 4 (ABI doc: "divided by 4 (lanes)"); ×4 gives bytes. */
    private static final long DATA_COUNTER_UNIT_BYTES = 4;
    private static final Set<String> DATA_COUNTERS =
            Set.of("port_rcv_data", "port_xmit_data", "port_rcv_data_64", "port_xmit_data_64");
    /**
     * The {@code counters_ext/} file (kernels before 4.5, mlx4; docs/reference/sysfs-and-counters.md §1.3) that counts
     * the same
     * thing as a {@code counters/} name: the 64-bit PortCountersExt value next to the legacy 32-bit one.
     */
    private static final Map<String, String> COUNTERS_EXT_TWINS = Map.of(
            "port_rcv_data_64", "port_rcv_data", "port_xmit_data_64", "port_xmit_data",
            "port_rcv_packets_64", "port_rcv_packets", "port_xmit_packets_64", "port_xmit_packets",
            "port_unicast_rcv_packets", "unicast_rcv_packets", "port_unicast_xmit_packets", "unicast_xmit_packets",
            "port_multicast_rcv_packets", "multicast_rcv_packets", "port_multicast_xmit_packets", "multicast_xmit_packets");
    /** A setting (cache time in ms), not a counter. */
    private static final String HW_COUNTER_LIFESPAN = "lifespan";
    private static final Set<Failure> TOLERATE_NONE = EnumSet.noneOf(Failure.class);
    private static final Set<Failure> TOLERATE_ABSENT = EnumSet.of(Failure.ABSENT);
    private static final Set<Failure> TOLERATE_NO_VALUE = EnumSet.of(Failure.ABSENT, Failure.NO_VALUE);
    /** {@link CounterMap#of}'s "no value absent"; never changed. */
    private static final BitSet NONE_ABSENT = new BitSet();

    private final Path hostRoot;
    private final Path classDir;
    private final SmallFileReader files;
    private final Path netClassDir;
    private final NetdevResolver netdevResolver;
    private final PciFunctionReader pciReader;
    /** Null: every read re-reads the GID tables, link attributes, identity and netdev mapping. */
    private final SlowCadenceCache slowCadence;
    /** Ports ({@code device/port}) whose truncated GID table was logged: once per port and reader. */
    private final Set<String> truncationLogged = java.util.concurrent.ConcurrentHashMap.newKeySet();

    public InfiniBandClassReader(Path hostRoot, SmallFileReader files) {
        this(hostRoot, files, null);
    }

    /**
     * A reader that reuses GID tables, port link attributes, device identity, netdev mapping and the PCIe link
     * (speed, width; not the AER counters) through
     * {@code slowCadence} (null: no reuse).
     */
    public InfiniBandClassReader(Path hostRoot, SmallFileReader files, SlowCadenceCache slowCadence) {
        this.hostRoot = hostRoot;
        this.classDir = hostRoot.resolve("sys/class/infiniband");
        this.files = files;
        this.netClassDir = hostRoot.resolve("sys/class/net");
        this.netdevResolver = new NetdevResolver(netClassDir, this::read);
        this.pciReader = new PciFunctionReader(hostRoot, this::read);
        this.slowCadence = slowCadence;
    }

    public Path classDir() {
        return classDir;
    }

    /** Device names, sorted; empty when the class directory is absent (no RDMA support). */
    public List<String> deviceNames() throws IOException {
        if (!Files.exists(classDir)) {
            return List.of();
        }
        return DirectoryListing.names(classDir);
    }

    /** One device with its ports, every hw counter from its file; never throws (see the class comment). */
    public DeviceReading readDevice(String name) {
        return readDevice(name, null);
    }

    /**
     * One device with its ports, the hw counters of each port from {@code hwCounters} where it answers (null: from
     * the files); never throws (see the class comment).
     */
    public DeviceReading readDevice(String name, PortHwCounterSource hwCounters) {
        Path dir = classDir.resolve(name);
        ReadProblems problems = new ReadProblems(hostRoot);
        if (!Files.isDirectory(dir)) {
            return vanished(name, dir);
        }
        List<IbPort> ports = readPorts(dir, hwCounters, problems);
        // what the slow-cadence values depend on: a port changing state or link layer re-reads them at once
        String portsKey = ports.stream().map(p -> p.port() + ":" + p.stateId() + "/" + p.linkLayer())
                .collect(Collectors.joining(","));
        ReadProblems identityProblems = new ReadProblems(hostRoot);
        DeviceIdentity identity = slowly(dir, portsKey, identityProblems, () -> readIdentity(dir, identityProblems));
        Map<Integer, String> netdevs = slowly(dir.resolve("device/net"), portsKey + "@" + identity.nodeGuid(), problems,
                () -> netdevResolver.resolve(dir, identity.nodeGuid(), ports, problems));
        Map<String, Map<String, Long>> netdevCounters = new HashMap<>();
        List<IbPort> withNetdevs = ports.stream()
                .map(p -> p.toBuilder().netdev(netdevs.get(p.port())).build())
                .map(p -> p.netdev() == null ? p : p.toBuilder().netdevCounters(
                        netdevCounters.computeIfAbsent(p.netdev(), netdev -> readNetdevCounters(netdev, problems))).build())
                .toList();

        // The link speed and width change only when the link retrains; the AER counters are counters, read each sample.
        PciFunction pci = pciReader.withAer(
                slowly(dir.resolve("device"), portsKey, problems, () -> pciReader.readLink(dir, problems)), problems);

        // A device removed between the listing and the last read leaves ENOENT everywhere; one clear
        // line says more than a dozen missing files, and half a device must not look like a real one.
        if (!Files.isDirectory(dir)) {
            return vanished(name, dir);
        }
        IdName nodeType = identity.nodeType();
        IbDevice device = new IbDevice(name,
                nodeType == null ? 0 : nodeType.id(), nodeType == null ? null : nodeType.name(),
                identity.nodeGuid(), identity.sysImageGuid(), identity.fwVersion(), identity.hcaType(),
                identity.boardId(), withNetdevs, pci);
        List<String> messages = new ArrayList<>(identityProblems.messages());
        messages.addAll(problems.messages());
        return new DeviceReading(name, device, messages);
    }

    /** A device's attributes that change only with its firmware or driver. */
    private record DeviceIdentity(IdName nodeType, String nodeGuid, String sysImageGuid, String fwVersion,
                                  String hcaType, String boardId) {
    }

    /** A port's attributes that change only with its link: on the slow cadence, re-read when its state changes. */
    private record PortLink(String rate, Long rateBytesPerSecond, String linkLayer) {
    }

    private DeviceIdentity readIdentity(Path dir, ReadProblems problems) {
        IdName nodeType = problems.parse(dir.resolve("node_type"),
                read(dir.resolve("node_type"), problems, TOLERATE_ABSENT), SysfsParsers::parseIdName);
        return new DeviceIdentity(nodeType,
                text(dir.resolve("node_guid"), problems, TOLERATE_ABSENT),
                text(dir.resolve("sys_image_guid"), problems, TOLERATE_ABSENT),
                text(dir.resolve("fw_ver"), problems, TOLERATE_NONE),
                text(dir.resolve("hca_type"), problems, TOLERATE_ABSENT),
                text(dir.resolve("board_id"), problems, TOLERATE_ABSENT));
    }

    private PortLink readLink(Path dir, ReadProblems problems) {
        String rate = text(dir.resolve("rate"), problems, TOLERATE_NONE);
        Long rateBytesPerSecond = problems.parse(dir.resolve("rate"), rate, SysfsParsers::parseRateBytesPerSecond);
        return new PortLink(rate, rateBytesPerSecond, text(dir.resolve("link_layer"), problems, TOLERATE_NONE));
    }

    /**
     * {@code read}'s value, or the one kept under {@code slot} on the slow cadence ({@link SlowCadenceCache});
     * every read is fresh without a cache. A read that added to {@code problems} is not kept.
     */
    private <T> T slowly(Path slot, String changeKey, ReadProblems problems, Supplier<T> read) {
        if (slowCadence == null) {
            return read.get();
        }
        return slowCadence.get(slot, changeKey, () -> {
            int before = problems.size();
            T fresh = read.get();
            return new SlowCadenceCache.Read<>(fresh, problems.size() != before);
        });
    }

    private DeviceReading vanished(String name, Path dir) {
        ReadProblems problems = new ReadProblems(hostRoot);
        problems.add(dir, "device vanished during read");
        return new DeviceReading(name, null, problems.messages());
    }

    private List<IbPort> readPorts(Path deviceDir, PortHwCounterSource hwCounters, ReadProblems problems) {
        Path portsDir = deviceDir.resolve("ports");
        List<IbPort> ports = new ArrayList<>();
        for (String entry : list(portsDir, problems, true)) {
            int number;
            try {
                number = Integer.parseInt(entry);
            } catch (NumberFormatException e) {
                problems.add(portsDir.resolve(entry), "not a port number");
                continue;
            }
            ports.add(readPort(portsDir.resolve(entry), number, hwCounters, problems));
        }
        ports.sort(Comparator.comparingInt(IbPort::port));
        return ports;
    }

    private IbPort readPort(Path dir, int number, PortHwCounterSource hwCounterSource, ReadProblems problems) {
        IdName state = problems.parse(dir.resolve("state"), read(dir.resolve("state"), problems, TOLERATE_NONE),
                SysfsParsers::parseIdName);
        IdName physState = problems.parse(dir.resolve("phys_state"),
                read(dir.resolve("phys_state"), problems, TOLERATE_NONE), SysfsParsers::parseIdName);
        String stateKey = state == null ? "?" : Integer.toString(state.id());
        PortLink link = slowly(dir, stateKey, problems, () -> readLink(dir, problems));
        String lid = text(dir.resolve("lid"), problems, TOLERATE_ABSENT);

        Map<String, Long> counters = mergeCountersExt(readCounterDir(dir.resolve("counters"), Set.of(), stateKey, problems),
                readCounterDir(dir.resolve("counters_ext"), Set.of(), stateKey, problems));
        HwCounters hwCounters = readHwCounters(dir.resolve("hw_counters"), number, stateKey, hwCounterSource, problems);
        GidTable gids = slowly(dir.resolve("gids"), stateKey + "/" + link.linkLayer(), problems,
                () -> readGids(dir, problems));
        if (gids.dropped() > 0) {
            String device = dir.getParent().getParent().getFileName().toString();
            if (truncationLogged.add(device + "/" + number)) {
                LOG.log(System.Logger.Level.WARNING, "GID table of {0} port {1} truncated: the first {2} non-empty"
                        + " entries are sent, {3} more are left out (a real table has at most 256)", device, number,
                        GidEntry.MAX_PER_PORT, gids.dropped());
            }
        }

        return IbPort.builder().port(number).stateId(state == null ? -1 : state.id())
                .state(state == null ? null : state.name()).physStateId(physState == null ? -1 : physState.id())
                .physState(physState == null ? null : physState.name()).rate(link.rate())
                .rateBytesPerSecond(link.rateBytesPerSecond()).linkLayer(link.linkLayer()).lid(lid).counters(counters)
                .hwCounters(hwCounters.values()).gids(gids.entries()).hwCountersSource(hwCounters.source())
                .gidsDropped(gids.dropped()).build();
    }

    /** A port's hw counters and where they came from ({@link IbPort#hwCountersSource()}). */
    private record HwCounters(Map<String, Long> values, String source) {
    }

    /**
     * The hw counters the files of {@code dir} name: from {@code source} when it gives every one of them, else read
     * file by file.
     */
    private HwCounters readHwCounters(Path dir, int port, String stateKey, PortHwCounterSource source,
                                      ReadProblems problems) {
        CounterListing listing = slowly(dir, stateKey, problems,
                () -> counterFiles(dir, Set.of(HW_COUNTER_LIFESPAN), problems));
        Map<String, Long> fromSource = source == null || listing.files().isEmpty() ? null
                : fromSource(listing, source.read(port));
        return fromSource != null ? new HwCounters(fromSource, IbPort.HW_COUNTERS_NETLINK)
                : new HwCounters(readCounters(listing, problems), IbPort.HW_COUNTERS_SYSFS);
    }

    /**
     * The values {@code read} gives for the files of {@code listing}, in its order and with its units, or null when
     * it gave none or lacks one of them: so that both ways give the same counters (the kernel's STAT_GET also lists
     * the optional counters that were enabled, which have no file, and never {@code lifespan}, which is no counter).
     */
    private static Map<String, Long> fromSource(CounterListing listing, Map<String, Long> read) {
        if (read == null) {
            return null;
        }
        long[] values = new long[listing.files().size()];
        for (int i = 0; i < values.length; i++) {
            CounterFile file = listing.files().get(i);
            Long value = read.get(file.name());
            if (value == null) {
                return null;
            }
            values[i] = file.dataCounter() ? value * DATA_COUNTER_UNIT_BYTES : value;
        }
        return CounterMap.of(listing.keys(), values, NONE_ABSENT, 0);
    }

    /**
     * The {@link NetdevCounters} files of {@code sys/class/net/<netdev>/}, read on every sample so that no carrier
     * flap between two samples is missed. A file the kernel lacks (older than 4.16) is absent, not a problem; one
     * that cannot be read or parsed is a problem naming it, and the rest are still read.
     */
    private Map<String, Long> readNetdevCounters(String netdev, ReadProblems problems) {
        Path dir = netClassDir.resolve(netdev);
        Map<String, Long> values = new LinkedHashMap<>();
        for (String name : NetdevCounters.FILES) {
            Path file = dir.resolve(name);
            Long value = problems.parse(file, read(file, problems, TOLERATE_NO_VALUE), SysfsParsers::parseCounter);
            if (value != null) {
                values.put(name, value);
            }
        }
        return values;
    }

    /**
     * Adds {@code counters_ext/} (kernels before 4.5, mlx4) under its own names, as node_exporter's
     * {@code legacy_*} metrics do, and makes each 64-bit value count for its {@code counters/} twin, which
     * is what the collector and the CLI read: there the legacy group is 32-bit and stops at 2^32-1 (16 GiB
     * of data, under 4 s at 40 Gb/s), and a captured mlx4 port reads 0 in {@code counters/port_rcv_data}
     * while {@code counters_ext/port_rcv_data_64} holds the traffic. The larger of the two wins: a counter
     * that only undercounts (saturated) loses to the 64-bit one, and a 64-bit counter the firmware does not
     * keep (the same capture reads 0 in {@code port_rcv_packets_64} next to 6.8 billion packets in
     * {@code counters/}) does not wipe out a real value. Unsigned, as both are u64 in a long.
     */
    private static Map<String, Long> mergeCountersExt(Map<String, Long> counters, Map<String, Long> countersExt) {
        if (countersExt.isEmpty()) {
            return counters; // every kernel since 4.5
        }
        Map<String, Long> merged = new LinkedHashMap<>(counters);
        countersExt.forEach((name, value) -> {
            merged.put(name, value);
            String twin = COUNTERS_EXT_TWINS.get(name);
            if (twin != null) {
                merged.merge(twin, value, (legacy, ext) -> Long.compareUnsigned(legacy, ext) >= 0 ? legacy : ext);
            }
        });
        return merged;
    }

    /**
     * Every counter file of a directory, by name (sorted: sysfs directory order carries no meaning).
     * An absent directory is normal (eRDMA and bnxt_re have no {@code counters/}); so are counters
     * the kernel refuses with EINVAL/EOPNOTSUPP or prints as {@code N/A (no PMA)}: absent, not zero.
     */
    private Map<String, Long> readCounterDir(Path dir, Set<String> skipped, String changeKey, ReadProblems problems) {
        return readCounters(slowly(dir, changeKey, problems, () -> counterFiles(dir, skipped, problems)), problems);
    }

    /** The counter files of {@code listing}, each read; see {@link #readCounterDir}. */
    private Map<String, Long> readCounters(CounterListing listing, ReadProblems problems) {
        List<CounterFile> files = listing.files();
        long[] values = new long[files.size()];
        BitSet absent = null;
        for (int i = 0; i < values.length; i++) {
            CounterFile file = files.get(i);
            Long value = counter(file.path(), problems);
            if (value == null) {
                absent = absent == null ? new BitSet(values.length) : absent;
                absent.set(i);
            } else {
                // Wraps modulo 2^64 like the kernel's own u64 would; 2^62 octets/4 is far beyond any port's life.
                values[i] = file.dataCounter() ? value * DATA_COUNTER_UNIT_BYTES : value;
            }
        }
        if (absent == null) {
            // the common case: the listing's names, shared from sample to sample, over unboxed values
            return CounterMap.of(listing.keys(), values, NONE_ABSENT, 0);
        }
        // an absent counter has no key at all (a CounterMap would list it with a null value)
        Map<String, Long> read = new LinkedHashMap<>(values.length * 4 / 3 + 1);
        for (int i = 0; i < values.length; i++) {
            if (!absent.get(i)) {
                read.put(files.get(i).name(), values[i]);
            }
        }
        return read;
    }

    /** A counter file of a listing, its path resolved once. */
    private record CounterFile(String name, Path path, boolean dataCounter) {
    }

    /** The counter files of a directory and their names as {@link CounterMap} keys, both made once per listing. */
    private record CounterListing(List<CounterFile> files, CounterMap.Keys keys) {
        static final CounterListing EMPTY = new CounterListing(List.of(), new CounterMap.Keys(List.of()));

        CounterListing(List<CounterFile> files) {
            this(files, new CounterMap.Keys(files.stream().map(CounterFile::name).toList()));
        }
    }

    /**
     * The counter files of a directory, sorted; kept on the slow cadence like the GID table (a driver's set of
     * counters changes only with the driver), which spares a listing, a sort and a path per file each sample.
     */
    private CounterListing counterFiles(Path dir, Set<String> skipped, ReadProblems problems) {
        if (!Files.isDirectory(dir)) {
            return CounterListing.EMPTY;
        }
        List<CounterFile> files = new ArrayList<>();
        int left = 0;
        for (String name : list(dir, problems, false)) {
            if (!skipped.contains(name)) {
                if (files.size() == IbPort.MAX_COUNTERS_PER_GROUP) {
                    left++; // bounded like the GID table: the first ones by name are read and sent
                } else {
                    files.add(new CounterFile(name, dir.resolve(name), DATA_COUNTERS.contains(name)));
                }
            }
        }
        if (left > 0 && truncationLogged.add(dir.toString())) {
            LOG.log(System.Logger.Level.WARNING, "{0} lists more than {1} counters: the first {1} are read and sent,"
                    + " {2} more are left out", dir, IbPort.MAX_COUNTERS_PER_GROUP, left);
        }
        return new CounterListing(files);
    }

    /**
     * A port's GID table as read: at most {@link GidEntry#MAX_PER_PORT} non-empty entries, and the entries after them
     * that were neither read nor sent.
     */
    private record GidTable(List<GidEntry> entries, int dropped) {
        static final GidTable EMPTY = new GidTable(List.of(), 0);
    }

    /**
     * The non-empty entries of {@code gids/} with their {@code gid_attrs}. The kernel answers EINVAL
     * for the attributes of an entry without a type or netdev (IB ports have no netdev): null, not a problem.
     * Bounded: once {@link GidEntry#MAX_PER_PORT} entries are kept (in index order), the rest of the directory is
     * counted, not read (100,000 entries made a hello too large for the collector, and their reads cost seconds).
     */
    private GidTable readGids(Path portDir, ReadProblems problems) {
        Path gidsDir = portDir.resolve("gids");
        if (!Files.isDirectory(gidsDir)) {
            return GidTable.EMPTY;
        }
        List<GidEntry> gids = new ArrayList<>();
        List<String> entries = list(gidsDir, problems, false);
        int dropped = 0;
        for (int i = 0; i < entries.size(); i++) {
            if (gids.size() == GidEntry.MAX_PER_PORT) {
                dropped = entries.size() - i;
                break;
            }
            String entry = entries.get(i);
            int index;
            try {
                index = Integer.parseInt(entry);
            } catch (NumberFormatException e) {
                problems.add(gidsDir.resolve(entry), "not a GID index");
                continue;
            }
            Path file = gidsDir.resolve(entry);
            String gid = problems.parse(file, read(file, problems, TOLERATE_NONE), SysfsParsers::parseGid);
            if (gid == null || SysfsParsers.isEmptyGid(gid)) {
                continue;
            }
            String type = text(portDir.resolve("gid_attrs/types").resolve(entry), problems, TOLERATE_NO_VALUE);
            String netdev = text(portDir.resolve("gid_attrs/ndevs").resolve(entry), problems, TOLERATE_NO_VALUE);
            gids.add(new GidEntry(index, gid, type, netdev, SysfsParsers.ipv4OfGid(gid)));
        }
        gids.sort(Comparator.comparingInt(GidEntry::index));
        return new GidTable(gids, dropped);
    }

    /**
     * A counter file's value, null when absent, refused by the kernel ({@code EINVAL}, {@code N/A (no PMA)}),
     * a directory (no stat per file: only a failed read asks), or unreadable or not a counter (then a problem).
     */
    private Long counter(Path file, ReadProblems problems) {
        try {
            return files.readCounter(file);
        } catch (IOException e) {
            if (!TOLERATE_NO_VALUE.contains(SysfsFiles.classify(e)) && !Files.isDirectory(file)) {
                problems.add(file, SysfsFiles.describe(e));
            }
            return null;
        } catch (IllegalArgumentException e) {
            problems.add(file, e.getMessage());
            return null;
        } catch (RuntimeException e) {
            problems.add(file, "cannot parse: " + e);
            return null;
        }
    }

    /** Reads a file; a failure not in {@code tolerated} becomes a problem; any failure gives null. */
    String read(Path file, ReadProblems problems, Set<Failure> tolerated) {
        return problems.read(files, file, tolerated);
    }

    /** A text attribute, null when absent, empty or not printable text (then a problem). */
    private String text(Path file, ReadProblems problems, Set<Failure> tolerated) {
        return emptyToNull(problems.parse(file, read(file, problems, tolerated), SysfsParsers::parseText));
    }

    private List<String> list(Path dir, ReadProblems problems, boolean required) {
        try {
            return DirectoryListing.names(dir);
        } catch (IOException e) {
            if (required || SysfsFiles.classify(e) != Failure.ABSENT) {
                problems.add(dir, SysfsFiles.describe(e));
            }
            return List.of();
        }
    }

    private static String emptyToNull(String text) {
        return text == null || text.isEmpty() ? null : text;
    }

    /** Sorted entry names of a directory. */
    static final class DirectoryListing {
        private DirectoryListing() {
        }

        /**
         * {@code File.list} (the names straight from {@code readdir}) rather than a stream of {@code Path}s: each
         * sample lists every device's {@code ports/}, and a {@code Path} per entry was a tenth of the reader's time.
         * It gives no reason when it fails, so a failure is listed again through {@link Files#list}, whose
         * exception names it (absent, not a directory, denied).
         */
        static List<String> names(Path dir) throws IOException {
            String[] names = dir.toFile().list();
            if (names == null) {
                try (Stream<Path> entries = Files.list(dir)) {
                    names = entries.map(p -> p.getFileName().toString()).toArray(String[]::new);
                }
            }
            Arrays.sort(names, NATURAL_ORDER);
            return List.of(names);
        }

        /** Numbers as numbers (port 10 after port 9, GID 10 after GID 9), then by text. */
        private static final Comparator<String> NATURAL_ORDER = (a, b) -> {
            boolean aNumeric = isNumber(a);
            boolean bNumeric = isNumber(b);
            if (aNumeric && bNumeric) {
                return a.length() != b.length() ? Integer.compare(a.length(), b.length()) : a.compareTo(b);
            }
            return aNumeric != bNumeric ? (aNumeric ? -1 : 1) : a.compareTo(b);
        };

        // A plain loop: this runs O(n log n) times per sort of a 255-entry GID table on every sample,
        // and a stream per call was the agent's hottest Java frame (docs/performance.md).
        private static boolean isNumber(String s) {
            if (s.isEmpty() || (s.length() > 1 && s.charAt(0) == '0')) {
                return false;
            }
            for (int i = 0; i < s.length(); i++) {
                if (!Character.isDigit(s.charAt(i))) {
                    return false;
                }
            }
            return true;
        }
    }
}
