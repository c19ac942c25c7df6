package io.rdmamon.protocol.wire;

import io.rdmamon.protocol.model.EthtoolStats;
import io.rdmamon.protocol.model.GidEntry;
import io.rdmamon.protocol.model.HostSample;
import io.rdmamon.protocol.model.IbDevice;
import io.rdmamon.protocol.model.IbPort;
import io.rdmamon.protocol.model.SourceStatus;
import io.rdmamon.protocol.model.VerbsPortAttributes;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Samples covering the shapes the codec must carry. */
final class TestSamples {
    private TestSamples() {
    }

    static IbPort roce(long rcvData, Long prio3Pause) {
        Map<String, Long> counters = new LinkedHashMap<>();
        counters.put("port_rcv_data", rcvData);
        counters.put("port_xmit_data", -1L); // 2^64-1: an unsigned value above Long.MAX_VALUE
        counters.put("VL15_dropped", 0L);
        counters.put("port_xmit_wait", null); // read failed this time: absent, not zero
        Map<String, Long> hw = new LinkedHashMap<>();
        hw.put("np_cnp_sent", 12L);
        hw.put("rp_cnp_handled", Long.MIN_VALUE); // 2^63
        Map<String, Long> raw = new LinkedHashMap<>();
        raw.put("rx_vport_rdma_unicast_bytes", 99L);
        raw.put("rx_prio0_bytes", 5L);
        raw.put("rx_prio0_packets", 1L);
        raw.put("rx_prio0_discards", 0L);
        raw.put("tx_prio0_bytes", 7L);
        raw.put("tx_prio0_packets", 2L);
        raw.put("rx_prio3_bytes", 1000L);
        raw.put("rx_prio3_packets", 10L);
        raw.put("tx_prio3_bytes", 2000L);
        raw.put("tx_prio3_packets", 20L);
        if (prio3Pause != null) { // mlx5 lists rx_prioN_pause only while PFC is enabled on N
            raw.put("rx_prio3_pause", prio3Pause);
        }
        raw.put("rx_prio3_pause_duration", 44L);
        raw.put("tx_prio3_pause", 3L);
        raw.put("tx_prio3_pause_duration", 55L);
        raw.put("rx_prio3_pause_transition", 1L);
        raw.put("tx_pause_storm_warning_events", 0L);
        EthtoolStats ethtool = EthtoolStats.of("eth2", raw);
        return new IbPort(1, 4, "ACTIVE", 5, "LinkUp", "100 Gb/sec (4X EDR)", 12_500_000_000L, "Ethernet", "0x0",
                "eth2", counters, hw,
                List.of(new GidEntry(0, "fe80:0000:0000:0000:0e42:a1ff:fe12:3456", "IB/RoCE v1", "eth2", null),
                        new GidEntry(3, "0000:0000:0000:0000:0000:ffff:c0a8:0102", "RoCE v2", "eth2", "192.168.1.2")),
                ethtool, new VerbsPortAttributes(4, 5, 5, 256, 0x04010000L, 0, 0, 2, 32, 5, 2));
    }

    static IbPort erdmaWithoutCounters() {
        return new IbPort(1, 4, "ACTIVE", 5, "LinkUp", "2.5 Gb/sec (1X SDR)", 312_500_000L, "Ethernet", null, "eth0",
                Map.of(), Map.of("tx_bytes_cnt", 123L), List.of(), null, null);
    }

    static IbPort ibUnreadable() {
        return new IbPort(2, -1, null, -1, null, null, null, null, null, null, Map.of(), Map.of(), List.of(),
                null, null);
    }

    static HostSample host(long ts, long rcvData, Long prio3Pause) {
        return new HostSample("gpu-01", ts, List.of(
                new IbDevice("erdma_0", 4, "RNIC", "0216:3eff:fe01:0203", null, "0.2.0", null, null,
                        List.of(erdmaWithoutCounters())),
                new IbDevice("mlx5_0", 1, "CA", "0a7f:bc12:45ef:d23b", "0a7f:bc12:45ef:d23b", "14.28.2006", "MT4123",
                        "MT_0000000010", List.of(roce(rcvData, prio3Pause), ibUnreadable()))),
                List.of(SourceStatus.ok("sysfs", "mlx5_0"),
                        SourceStatus.failed("ethtool", "eth9", "ioctl SIOCETHTOOL on eth9: No such device")));
    }
}
