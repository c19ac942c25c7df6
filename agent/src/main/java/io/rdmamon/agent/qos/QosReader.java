package io.rdmamon.agent.qos;

import io.rdmamon.agent.capability.UnsupportedCapabilityException;
import io.rdmamon.agent.sysfs.RegularFiles;
import io.rdmamon.agent.sysfs.SmallFileReader;
import io.rdmamon.agent.sysfs.SysfsFiles;
import io.rdmamon.protocol.model.QosConfig;
import io.rdmamon.protocol.model.SourceStatus;

import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * Assembles a RoCE port's {@link QosConfig} (docs/architecture.md "Host root"): the DCB part from a {@link DcbSource},
 * then, where they
 * exist, MLNX_OFED's {@code sys/class/net/<if>/ecn/} and {@code sys/class/infiniband/<dev>/tc/<port>/traffic_class},
 * and rdma_cm's configfs {@code default_roce_tos}; and the host's {@code etc/nccl.conf}. Read only: a file or
 * directory that does not exist is not read, never created.
 *
 * <p>Configuration changes rarely, so a port's reading is reused for the refresh interval (the agent's
 * {@code --qos-refresh}) unless the port's state changed since (a link that came back may have come back from a driver
 * reload, which resets the DCB configuration). Each read gives one {@code qos} {@link SourceStatus} per netdev, reused
 * with the reading. Every failure costs only its part: a malformed OFED file only its field. A netdev without DCB has
 * no configuration and an unsupported status saying why: a capability it lacks, not a failure.
 *
 * <p>Blocking file and netlink I/O: call from a worker thread.
 */
public final class QosReader {
    public static final String SOURCE_QOS = "qos";
    /** {@code /etc/nccl.conf} holds a few dozen lines; a file beyond this is not NCCL's configuration. */
    static final long MAX_NCCL_CONF_BYTES = 64 * 1024;
    /** NCCL's host-wide settings file, relative to the host root. */
    public static final String NCCL_CONF = "etc/nccl.conf";

    /** One port's reading, when it was taken and in which port state. */
    private record Cached(String portKey, long readAtMillis, PortQos qos) {
    }

    private record CachedNccl(long readAtMillis, NcclConf conf) {
    }

    /**
     * The result for one port: its configuration (null when DCB could not be read) and its status (null when nothing
     * was captured for the netdev under a host root: nothing known, nothing failed).
     */
    public record PortQos(QosConfig config, SourceStatus status) {
    }

    /** The result for the host file: its entries (null when there is no such file) and a status when it exists. */
    public record NcclConf(Map<String, String> entries, SourceStatus status) {
    }

    private final Path hostRoot;
    private final SmallFileReader files;
    private final DcbSource dcb;
    private final long refreshMillis;
    private final LongSupplier clockMillis;
    private final Map<String, Cached> cache = new ConcurrentHashMap<>();
    private volatile CachedNccl nccl;

    /**
     * @param files       reads one small file, trimmed (the host reader's watched sysfs reader)
     * @param dcb         the DCB part: netlink on {@code /}, captures elsewhere
     * @param refresh     longest reuse of a reading; {@link Duration#ZERO} reads every time (one-shot commands)
     * @param clockMillis milliseconds for the reuse
     */
    public QosReader(Path hostRoot, SmallFileReader files, DcbSource dcb, Duration refresh, LongSupplier clockMillis) {
        if (refresh.isNegative()) {
            throw new IllegalArgumentException("QoS refresh interval must not be negative: " + refresh);
        }
        this.hostRoot = hostRoot;
        this.files = files;
        this.dcb = dcb;
        this.refreshMillis = refresh.toMillis();
        this.clockMillis = clockMillis;
    }

    /**
     * The configuration of RoCE port {@code port} of {@code device} whose netdev is {@code netdev}.
     *
     * @param state the port's state this sample: a change reads again at once
     */
    public PortQos port(String device, int port, String netdev, String state) {
        String key = device + "/" + port + "/" + netdev;
        String portKey = String.valueOf(state);
        long now = clockMillis.getAsLong();
        Cached cached = cache.get(key);
        if (cached != null && cached.portKey.equals(portKey) && now - cached.readAtMillis < refreshMillis) {
            return cached.qos;
        }
        PortQos read = readPort(device, port, netdev);
        cache.put(key, new Cached(portKey, now, read));
        return read;
    }

    /** The longest reuse of a reading, in milliseconds (the slow cadence other host-wide facts follow). */
    public long refreshMillis() {
        return refreshMillis;
    }

    /** {@code <root>/etc/nccl.conf}, on the same cadence as the ports. */
    public NcclConf ncclConf() {
        long now = clockMillis.getAsLong();
        CachedNccl cached = nccl;
        if (cached != null && now - cached.readAtMillis < refreshMillis) {
            return cached.conf;
        }
        NcclConf read = readNcclConf();
        nccl = new CachedNccl(now, read);
        return read;
    }

    private PortQos readPort(String device, int port, String netdev) {
        List<String> problems = new ArrayList<>();
        DcbSource.Reading reading;
        try {
            reading = dcb.readParts(netdev);
        } catch (DcbSource.NotCapturedException e) {
            return new PortQos(null, null);
        } catch (UnsupportedCapabilityException e) {
            return new PortQos(null, SourceStatus.unsupported(SOURCE_QOS, netdev, e.getMessage()));
        } catch (IOException e) {
            return new PortQos(null, SourceStatus.failed(SOURCE_QOS, netdev, e.getMessage()));
        } catch (RuntimeException e) {
            // a parser or binding bug: costs this netdev's configuration only
            return new PortQos(null, SourceStatus.failed(SOURCE_QOS, netdev, "DCB of " + netdev + ": " + e));
        }
        QosConfig dcbPart = reading.config();
        QosConfig.Ecn ecn = readEcn(netdev, problems);
        // OFED-only and configfs-only: look for the directory first, absent on most hosts (an exception per absent
        // file was a large part of a read's cost)
        Path tc = Path.of("sys/class/infiniband", device, "tc", Integer.toString(port));
        Integer trafficClass = !Files.isDirectory(hostRoot.resolve(tc)) ? null
                : readOptional(tc.resolve("traffic_class"), QosFileParsers::trafficClass, problems);
        Path configfs = Path.of("sys/kernel/config/rdma_cm", device, "ports", Integer.toString(port));
        Integer defaultRoceTos = !Files.isDirectory(hostRoot.resolve(configfs)) ? null
                : readOptional(configfs.resolve("default_roce_tos"), QosFileParsers::defaultRoceTos, problems);
        QosConfig config = new QosConfig(dcbPart.source(), dcbPart.dcbx(), dcbPart.pfc(), dcbPart.ets(), dcbPart.app(),
                dcbPart.trustOrder(), dcbPart.buffer(), dcbPart.tcMaxrateKbits(), ecn, trafficClass, defaultRoceTos);
        return new PortQos(config, status(netdev, problems, reading.unsupported()));
    }

    /** Failed when a part that exists could not be read; else unsupported when the netdev lacks a part; else ok. */
    static SourceStatus status(String netdev, List<String> problems, List<String> unsupported) {
        if (!problems.isEmpty()) {
            return SourceStatus.failed(SOURCE_QOS, netdev, String.join("; ", problems));
        }
        return unsupported.isEmpty() ? SourceStatus.ok(SOURCE_QOS, netdev)
                : SourceStatus.unsupported(SOURCE_QOS, netdev, String.join("; ", unsupported));
    }

    /** MLNX_OFED's {@code ecn/}: null where the directory does not exist (upstream mlx5, other drivers). */
    private QosConfig.Ecn readEcn(String netdev, List<String> problems) {
        Path ecn = Path.of("sys/class/net", netdev, "ecn");
        if (!Files.isDirectory(hostRoot.resolve(ecn))) {
            return null;
        }
        Map<Integer, Boolean> np = ecnEnable(ecn.resolve("roce_np/enable"), problems);
        Map<Integer, Boolean> rp = ecnEnable(ecn.resolve("roce_rp/enable"), problems);
        Integer cnpDscp = readOptional(ecn.resolve("roce_np/cnp_dscp"), text -> QosFileParsers.integerIn(text, 0, 63),
                problems);
        Integer cnpPriority = readOptional(ecn.resolve("roce_np/cnp_802p_prio"),
                text -> QosFileParsers.integerIn(text, 0, QosConfig.PRIORITIES - 1), problems);
        return new QosConfig.Ecn(np, rp, cnpDscp, cnpPriority);
    }

    private Map<Integer, Boolean> ecnEnable(Path dir, List<String> problems) {
        Map<Integer, Boolean> enabled = new LinkedHashMap<>();
        for (int priority = 0; priority < QosConfig.PRIORITIES; priority++) {
            Boolean value = readOptional(dir.resolve(Integer.toString(priority)), QosFileParsers::ecnEnabled, problems);
            if (value != null) {
                enabled.put(priority, value);
            }
        }
        return enabled;
    }

    @FunctionalInterface
    private interface Parser<T> {
        T parse(String text);
    }

    /** The parsed file, or null when it does not exist or cannot be parsed (then a problem names it). */
    private <T> T readOptional(Path relative, Parser<T> parser, List<String> problems) {
        Path file = hostRoot.resolve(relative);
        String text;
        try {
            text = files.read(file);
        } catch (IOException e) {
            if (SysfsFiles.classify(e) != SysfsFiles.Failure.ABSENT) {
                problems.add(relative + ": " + SysfsFiles.describe(e));
            }
            return null;
        }
        try {
            return parser.parse(text);
        } catch (IllegalArgumentException e) {
            problems.add(relative + ": " + e.getMessage());
            return null;
        }
    }

    private NcclConf readNcclConf() {
        Path file = hostRoot.resolve(NCCL_CONF);
        try {
            RegularFiles.require(file, NCCL_CONF); // a FIFO here would block the read, and the sample, for ever
            if (Files.size(file) > MAX_NCCL_CONF_BYTES) {
                return new NcclConf(null, SourceStatus.failed(SOURCE_QOS, NCCL_CONF, NCCL_CONF + ": larger than "
                        + MAX_NCCL_CONF_BYTES + " bytes, not an NCCL configuration"));
            }
            Map<String, String> entries = QosFileParsers.ncclConf(Files.readString(file, StandardCharsets.UTF_8));
            return new NcclConf(entries, SourceStatus.ok(SOURCE_QOS, NCCL_CONF));
        } catch (NoSuchFileException e) {
            return new NcclConf(null, null);
        } catch (CharacterCodingException e) {
            return new NcclConf(null, SourceStatus.failed(SOURCE_QOS, NCCL_CONF, NCCL_CONF + ": not UTF-8 text"));
        } catch (IOException e) {
            return new NcclConf(null, SourceStatus.failed(SOURCE_QOS, NCCL_CONF, NCCL_CONF + ": "
                    + SysfsFiles.describe(e)));
        } catch (IllegalArgumentException e) {
            return new NcclConf(null, SourceStatus.failed(SOURCE_QOS, NCCL_CONF, NCCL_CONF + ": " + e.getMessage()));
        }
    }
}
