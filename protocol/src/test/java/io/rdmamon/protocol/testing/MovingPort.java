package io.rdmamon.protocol.testing;

import io.rdmamon.protocol.model.GidEntry;
import io.rdmamon.protocol.model.HostSample;
import io.rdmamon.protocol.model.IbDevice;
import io.rdmamon.protocol.model.IbPort;
import io.rdmamon.protocol.model.SourceStatus;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * A port whose counters move at given rates, for tests that feed samples over time (the diagnosis rules):
 * {@link #step} advances every counter by its rate times the step and returns the port as an agent would read
 * it, built with {@link Samples}. Counters start at {@link #START} (as after some uptime). Rates are keyed
 * "pma:NAME", "hw:NAME", "eth:NAME" (ethtool, e.g. eth:tx_prio3_bytes).
 */
public final class MovingPort {
    public static final long START = 1_000_000;
    /** mlx5 lists a priority's pause counters only while PFC is enabled on it. */
    private static final Pattern PAUSE_NAME = Pattern.compile("[rt]x_prio[0-7]_pause.*");
    /** A RoCE port's GID table with a link-local and an IPv4-mapped (10.1.1.2) GID, each as RoCE v1 and v2. */
    public static final List<GidEntry> ROUTABLE_GIDS = List.of(
            new GidEntry(0, Samples.LINK_LOCAL_GID, "IB/RoCE v1", "eth2", null),
            new GidEntry(1, Samples.LINK_LOCAL_GID, "RoCE v2", "eth2", null),
            new GidEntry(2, "0000:0000:0000:0000:0000:ffff:0a01:0102", "IB/RoCE v1", "eth2", "10.1.1.2"),
            new GidEntry(3, "0000:0000:0000:0000:0000:ffff:0a01:0102", "RoCE v2", "eth2", "10.1.1.2"));

    private final Samples.PortBuilder port;
    private final Samples.DeviceBuilder device;
    /** The port has a netdev whose ethtool statistics are read. */
    private final boolean ethtool;
    private Set<Integer> pfc = Set.of(3);
    private List<SourceStatus> sources = List.of(SourceStatus.ok("sysfs", "mlx5_0"));
    private final Map<String, Double> rates = new HashMap<>();
    private final Map<String, Double> totals = new HashMap<>();

    private MovingPort(Samples.PortBuilder port, Samples.DeviceBuilder device, boolean ethtool) {
        this.port = port.rate("200 Gb/sec (4X HDR)", 25_000_000_000L).lid("0x0").netdev(ethtool ? "eth2" : null);
        this.device = device.sysImageGuid(null).fwVersion("1.0").boardId(null);
        this.ethtool = ethtool;
    }

    /** An mlx5 RoCE port on eth2 with PFC on priority 3 and {@link #ROUTABLE_GIDS}. */
    public static MovingPort roce() {
        return new MovingPort(Samples.rocePort().gids(ROUTABLE_GIDS), Samples.mlx5Device(), true);
    }

    /** An mlx5 (ConnectX-7) InfiniBand port. */
    public static MovingPort ib() {
        return new MovingPort(Samples.ibPort(), Samples.mlx5Device(), false).hcaType("MT4129");
    }

    /** An eRDMA port at 25 Gb/s without ethtool statistics. */
    public static MovingPort erdma() {
        return new MovingPort(Samples.erdmaPort(), Samples.erdmaDevice(), false)
                .linkRate("25 Gb/sec (1X EDR)", 3_125_000_000L);
    }

    /** Healthy RDMA traffic on {@code priority} with working DCQCN. */
    public MovingPort healthyTraffic(int priority) {
        return rate("pma:port_xmit_data", 10e9).rate("pma:port_rcv_data", 8e9)
                .rate("eth:tx_prio" + priority + "_bytes", 10e9).rate("eth:rx_prio" + priority + "_bytes", 8e9)
                .rate("eth:tx_prio0_bytes", priority == 0 ? 10.2e9 : 0.2e9)
                .rate("hw:np_ecn_marked_roce_packets", 1000).rate("hw:np_cnp_sent", 800).rate("hw:rp_cnp_handled", 500)
                .rate("hw:rp_cnp_ignored", 0).rate("hw:out_of_sequence", 0)
                .rate("eth:rx_prio" + priority + "_pause", 5).rate("eth:rx_prio" + priority + "_pause_duration", 15);
    }

    public MovingPort rate(String key, double perSecond) {
        rates.put(key, perSecond);
        return this;
    }

    /** The rates set so far, by key. */
    public Map<String, Double> rates() {
        return Map.copyOf(rates);
    }

    /** The port's {@code rate} text and bytes per second (200 Gb/s unless set). */
    public MovingPort linkRate(String text, Long bytesPerSecond) {
        port.rate(text, bytesPerSecond);
        return this;
    }

    /** The device's {@code hca_type}. */
    public MovingPort hcaType(String hcaType) {
        device.hcaType(hcaType);
        return this;
    }

    /** The priorities with PFC enabled: the ones mlx5 lists pause counters for. */
    public MovingPort pfc(Integer... priorities) {
        pfc = Set.of(priorities);
        return this;
    }

    public MovingPort gids(List<GidEntry> entries) {
        port.gids(entries);
        return this;
    }

    /** The port's {@code state} id from the next read on (1 DOWN, 4 ACTIVE). */
    public MovingPort state(int stateId) {
        port.state(stateId);
        return this;
    }

    /** The agent's source statuses sent with {@link #sample}. */
    public MovingPort sources(List<SourceStatus> statuses) {
        sources = statuses;
        return this;
    }

    /** Sets a counter's total outright (a reset, a wrap). */
    public MovingPort total(String key, double value) {
        totals.put(key, value);
        return this;
    }

    /** Advances every counter by its rate for {@code seconds} and reads the port. */
    public IbPort step(double seconds) {
        rates.forEach((key, perSecond) -> totals.merge(key, perSecond * seconds, Double::sum));
        return read();
    }

    /** The port as it reads now. */
    public IbPort read() {
        return port.counters(group("pma:")).hwCounters(group("hw:"))
                .ethtool(ethtool ? mlx5Statistics(group("eth:")) : null).build();
    }

    /** The device with {@code port} as its only port. */
    public IbDevice device(IbPort read) {
        return device.ports(read).build();
    }

    /** The port as a one-port host sample taken at {@code timestampMillis}, after a step of {@code seconds}. */
    public HostSample sample(String node, long timestampMillis, double seconds) {
        return Samples.host(node, timestampMillis).devices(device(step(seconds))).sources(sources).build();
    }

    private Map<String, Long> group(String prefix) {
        Map<String, Long> values = new LinkedHashMap<>();
        for (String key : keys()) {
            if (key.startsWith(prefix)) {
                values.put(key.substring(prefix.length()), Math.round(START + totals.getOrDefault(key, 0.0)));
            }
        }
        return values;
    }

    private Set<String> keys() {
        Set<String> keys = new TreeSet<>(rates.keySet());
        keys.addAll(totals.keySet());
        return keys;
    }

    /**
     * The ethtool statistics as mlx5 lists them: the traffic counters of every priority exist (at their start value)
     * even when nothing moves them, the pause counters of the PFC-enabled priorities only.
     */
    private Map<String, Long> mlx5Statistics(Map<String, Long> moved) {
        Map<String, Long> stats = new LinkedHashMap<>();
        for (int p = 0; p < 8; p++) {
            List<String> names = new ArrayList<>(List.of("rx_prio" + p + "_bytes", "rx_prio" + p + "_packets",
                    "rx_prio" + p + "_discards", "tx_prio" + p + "_bytes", "tx_prio" + p + "_packets"));
            if (pfc.contains(p)) {
                names.addAll(List.of("rx_prio" + p + "_pause", "rx_prio" + p + "_pause_duration",
                        "tx_prio" + p + "_pause", "tx_prio" + p + "_pause_duration", "rx_prio" + p + "_pause_transition"));
            }
            names.forEach(name -> stats.put(name, moved.getOrDefault(name, START)));
        }
        moved.forEach((name, value) -> {
            if (!PAUSE_NAME.matcher(name).matches()) {
                stats.putIfAbsent(name, value);
            }
        });
        return stats;
    }
}
