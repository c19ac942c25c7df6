package io.rdmamon.collector.diagnosis;

import io.rdmamon.protocol.model.EthtoolStats;
import io.rdmamon.protocol.model.GidEntry;
import io.rdmamon.protocol.model.HostSample;
import io.rdmamon.protocol.model.IbDevice;
import io.rdmamon.protocol.model.IbPort;
import io.rdmamon.protocol.model.PriorityCounters;
import io.rdmamon.protocol.model.SourceStatus;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * A port whose counters move at given rates: {@link #step} advances every counter by its rate times the
 * step and returns the port as an agent would read it. Counters start at 1,000,000 (as after some uptime).
 * Rates are keyed "pma:NAME", "hw:NAME", "eth:NAME" (ethtool, e.g. eth:tx_prio3_bytes).
 */
final class TestPort {
    static final long START = 1_000_000;
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
        EthtoolStats stats = null;
        if (ethtool) {
            List<PriorityCounters> priorities = new ArrayList<>();
            for (int p = 0; p < 8; p++) {
                boolean lossless = pfc.contains(p);
                String prefix = "_prio" + p + "_";
                priorities.add(new PriorityCounters(p, value(eth, "rx" + prefix + "bytes"), value(eth, "rx" + prefix + "packets"),
                        value(eth, "rx" + prefix + "discards"), value(eth, "tx" + prefix + "bytes"),
                        value(eth, "tx" + prefix + "packets"),
                        lossless ? value(eth, "rx" + prefix + "pause") : null,
                        lossless ? value(eth, "rx" + prefix + "pause_duration") : null,
                        lossless ? value(eth, "tx" + prefix + "pause") : null,
                        lossless ? value(eth, "tx" + prefix + "pause_duration") : null,
                        lossless ? value(eth, "rx" + prefix + "pause_transition") : null));
            }
            Map<String, Long> vport = new LinkedHashMap<>();
            eth.forEach((name, value) -> {
                if (name.contains("vport_rdma")) {
                    vport.put(name, value);
                }
            });
            stats = new EthtoolStats("eth2", eth, priorities, new TreeSet<>(pfc), vport,
                    eth.get("tx_pause_storm_warning_events"), eth.get("tx_pause_storm_error_events"));
        }
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

    /** Per-priority counters exist (at their start value) even when nothing moves them. */
    private static Long value(Map<String, Long> eth, String name) {
        return eth.getOrDefault(name, START);
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
