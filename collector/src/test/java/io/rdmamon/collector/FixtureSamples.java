package io.rdmamon.collector;

import io.rdmamon.protocol.model.EthtoolStats;
import io.rdmamon.protocol.model.GidEntry;
import io.rdmamon.protocol.model.HostSample;
import io.rdmamon.protocol.model.IbDevice;
import io.rdmamon.protocol.model.IbPort;
import io.rdmamon.protocol.model.SourceStatus;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A fixed host for the golden exposition: an mlx5 RoCE port with PFC on priority 3, an mlx5 IB port
 * (legacy error counters, saturated port_xmit_wait) and an eRDMA port without counters/.
 * {@code step} scales the traffic counters so that two samples give known rates.
 */
public final class FixtureSamples {
    private FixtureSamples() {
    }

    public static HostSample host(String node, long timestampMillis, long step) {
        Map<String, Long> roceCounters = new LinkedHashMap<>();
        roceCounters.put("port_rcv_data", 4_000_000L * step);   // bytes: the reader multiplied by 4
        roceCounters.put("port_xmit_data", 8_000_000L * step);
        roceCounters.put("port_rcv_packets", 1_000L * step);
        roceCounters.put("port_xmit_packets", 2_000L * step);
        roceCounters.put("port_xmit_wait", 7L);
        roceCounters.put("VL15_dropped", 0L);
        Map<String, Long> roceHw = new LinkedHashMap<>();
        roceHw.put("out_of_sequence", 3L);
        roceHw.put("np_cnp_sent", 100L * step);
        roceHw.put("rp_cnp_handled", -2L); // u64 18446744073709551614: above Long.MAX_VALUE
        Map<String, Long> raw = new LinkedHashMap<>(); // kernel order (rdma-facts.md §3.1)
        raw.put("rx_vport_rdma_unicast_bytes", 4_000_000L * step);
        raw.put("rx_prio0_bytes", 1000L);
        raw.put("rx_prio0_packets", 10L);
        raw.put("rx_prio0_discards", 0L);
        raw.put("tx_prio0_bytes", 2000L);
        raw.put("tx_prio0_packets", 20L);
        raw.put("rx_prio3_bytes", 3_000_000L * step);
        raw.put("rx_prio3_packets", 3000L);
        raw.put("rx_prio3_discards", 0L);
        raw.put("tx_prio3_bytes", 6_000_000L);
        raw.put("tx_prio3_packets", 6000L);
        raw.put("rx_prio3_pause", 12L); // PFC on priority 3: mlx5 lists its pause counters
        raw.put("rx_prio3_pause_duration", 2_500_000L); // microseconds
        raw.put("tx_prio3_pause", 4L);
        raw.put("tx_prio3_pause_duration", 500L);
        raw.put("rx_prio3_pause_transition", 6L);
        raw.put("tx_pause_storm_warning_events", 0L);
        raw.put("tx_pause_storm_error_events", 0L);
        EthtoolStats ethtool = EthtoolStats.of("eth2", raw);
        IbPort roce = new IbPort(1, 4, "ACTIVE", 5, "LinkUp", "100 Gb/sec (4X EDR)", 12_500_000_000L, "Ethernet", "0x0",
                "eth2", roceCounters, roceHw,
                List.of(new GidEntry(0, "fe80:0000:0000:0000:0e42:a1ff:fe12:3456", "IB/RoCE v1", "eth2", null),
                        new GidEntry(3, "0000:0000:0000:0000:0000:ffff:c0a8:0102", "RoCE v2", "eth2", "192.168.1.2")),
                ethtool, null);
        Map<String, Long> ibCounters = new LinkedHashMap<>();
        ibCounters.put("symbol_error", 2L);
        ibCounters.put("port_xmit_wait", 4_294_967_295L);
        ibCounters.put("port_rcv_data", 16L * step);
        IbPort ib = new IbPort(2, 1, "DOWN", 3, "Disabled", "10 Gb/sec (4X)", 1_250_000_000L, "InfiniBand", "0x5", null,
                ibCounters, Map.of(), List.of(new GidEntry(0, "fe80:0000:0000:0000:0a7f:bc12:45ef:d23b", "IB/RoCE v1", null, null)),
                null, null);
        Map<String, Long> erdmaHw = new LinkedHashMap<>();
        erdmaHw.put("tx_bytes_cnt", 5_000L * step);
        erdmaHw.put("rx_bytes_cnt", 6_000L * step);
        erdmaHw.put("tx_bps_limit_drop_cnt", 0L);
        IbPort erdma = new IbPort(1, 4, "ACTIVE", 5, "LinkUp", "2.5 Gb/sec (1X SDR)", 312_500_000L, "Ethernet", null,
                "eth0", Map.of(), erdmaHw, List.of(), null, null);
        return new HostSample(node, timestampMillis, List.of(
                new IbDevice("erdma_0", 4, "RNIC", "0216:3eff:fe01:0203", null, "0.2.0", null, null, List.of(erdma)),
                new IbDevice("mlx5_0", 1, "CA", "0a7f:bc12:45ef:d23b", "0a7f:bc12:45ef:d23b", "14.28.2006", "MT4123",
                        "MT_0000000010", List.of(roce, ib))),
                List.of(SourceStatus.ok("sysfs", "mlx5_0"), SourceStatus.ok("sysfs", "erdma_0"),
                        SourceStatus.ok("ethtool", "eth2"),
                        SourceStatus.failed("ethtool", "eth0", "ioctl SIOCETHTOOL ETHTOOL_GSTATS on eth0: Operation not supported")));
    }
}
