package io.rdmamon.collector.diagnosis;

import io.rdmamon.protocol.model.EthtoolStats;
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
 * A port whose counters move at given rates: {@link #step} advances every counter by its rate times the
 * step and returns the port as an agent would read it. Counters start at 1,000,000 (as after some uptime).
 * Rates are keyed "pma:NAME", "hw:NAME", "eth:NAME" (ethtool, e.g. eth:tx_prio3_bytes).
 */
final class TestPort {
    static final long START = 1_000_000;
    /** mlx5 lists a priority's pause counters only while PFC is enabled on it. */
    private static final Pattern PAUSE_NAME = Pattern.compile("[rt]x_prio[0-7]_pause.*");
    static final List<GidEntry> ROUTABLE_GIDS = List.of(
            new GidEntry(0, "fe80:0000:0000:0000:0e42:a1ff:fe12:3456", "IB/RoCE v1", "eth2", null),
            new GidEntry(1, "fe80:0000:0000:0000:0e42:a1ff:fe12:3456", "RoCE v2", "eth2", null),
            new GidEntry(2, "0000:0000:0000:0000:0000:ffff:0a01:0102", "IB/RoCE v1", "eth2", "10.1.1.2"),
            new GidEntry(3, "0000:0000:0000:0000:0000:ffff:0a01:0102", "RoCE v2", "eth2", "10.1.1.2"));

    String device = "mlx5_0";
    int nodeTypeId = 1;
    String hcaType = "MT4123";
    String linkLayer = "Ethernet";
    int stateId = 4;
    String rate = "200 Gb/sec (4X HDR)";
    long rateBytes = 25_000_000_000L;
    Set<Integer> pfc = Set.of(3);
    boolean ethtool = true;
    List<GidEntry> gids = ROUTABLE_GIDS;
    List<SourceStatus> sources = List.of(SourceStatus.ok("sysfs", "mlx5_0"));
    final Map<String, Double> rates = new HashMap<>();
    private final Map<String, Double> totals = new HashMap<>();

    static TestPort roce() {
        return new TestPort();
    }

    static TestPort ib() {
        TestPort port = new TestPort();
        port.linkLayer = "InfiniBand";
        port.hcaType = "MT4129";
        port.ethtool = false;
        port.gids = List.of(new GidEntry(0, "fe80:0000:0000:0000:0a7f:bc12:45ef:d23b", "IB/RoCE v1", null, null));
        return port;
    }

    static TestPort erdma() {
        TestPort port = new TestPort();
        port.device = "erdma_0";
        port.nodeTypeId = 4;
        port.hcaType = null;
        port.ethtool = false;
        port.rate = "25 Gb/sec (1X EDR)";
        port.rateBytes = 3_125_000_000L;
        port.gids = List.of(new GidEntry(0, "0016:3e01:0203:0000:0000:0000:0000:0000", null, null, null));
        return port;
    }

    /** Healthy RDMA traffic on priority 3 with working DCQCN. */
    TestPort healthyTraffic(int priority) {
        return rate("pma:port_xmit_data", 10e9).rate("pma:port_rcv_data", 8e9)
                .rate("eth:tx_prio" + priority + "_bytes", 10e9).rate("eth:rx_prio" + priority + "_bytes", 8e9)
                .rate("eth:tx_prio0_bytes", priority == 0 ? 10.2e9 : 0.2e9)
                .rate("hw:np_ecn_marked_roce_packets", 1000).rate("hw:np_cnp_sent", 800).rate("hw:rp_cnp_handled", 500)
                .rate("hw:rp_cnp_ignored", 0).rate("hw:out_of_sequence", 0)
                .rate("eth:rx_prio" + priority + "_pause", 5).rate("eth:rx_prio" + priority + "_pause_duration", 15);
    }

    TestPort rate(String key, double perSecond) {
        rates.put(key, perSecond);
        return this;
    }

    TestPort pfc(Integer... priorities) {
        pfc = Set.of(priorities);
        return this;
    }

    TestPort gids(List<GidEntry> entries) {
        gids = entries;
        return this;
    }

    /** Sets a counter's total outright (a reset, a wrap). */
    TestPort total(String key, double value) {
        totals.put(key, value);
        return this;
    }

    /** Advances every counter by its rate for {@code seconds} and reads the port. */
    IbPort step(double seconds) {
        rates.forEach((key, perSecond) -> totals.merge(key, perSecond * seconds, Double::sum));
        return read();
    }

    IbPort read() {
        Map<String, Long> pma = group("pma:");
        Map<String, Long> hw = group("hw:");
        Map<String, Long> eth = group("eth:");
        EthtoolStats stats = ethtool ? EthtoolStats.of("eth2", mlx5Statistics(group("eth:"))) : null;
        return new IbPort(1, stateId, stateName(stateId), stateId == 4 ? 5 : 3, stateId == 4 ? "LinkUp" : "Disabled", rate,
                rateBytes, linkLayer, "0x0", ethtool ? "eth2" : null, pma, hw, gids, stats, null);
    }

    IbDevice device(IbPort port) {
        return new IbDevice(device, nodeTypeId, nodeTypeId == 1 ? "CA" : "RNIC", "0a7f:bc12:45ef:d23b", null, "1.0",
                hcaType, null, List.of(port));
    }

    /** The port as a one-port host sample taken at {@code timestampMillis}, after a step of {@code seconds}. */
    HostSample sample(String node, long timestampMillis, double seconds) {
        return new HostSample(node, timestampMillis, List.of(device(step(seconds))), sources);
    }

    private Map<String, Long> group(String prefix) {
        Map<String, Long> values = new LinkedHashMap<>();
        for (String key : new TreeSet<>(keys())) {
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

    private static String stateName(int id) {
        return switch (id) {
            case 1 -> "DOWN";
            case 2 -> "INIT";
            case 3 -> "ARMED";
            case 4 -> "ACTIVE";
            default -> "ACTIVE_DEFER";
        };
    }
}
