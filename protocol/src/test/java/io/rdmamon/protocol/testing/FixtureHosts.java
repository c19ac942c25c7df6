package io.rdmamon.protocol.testing;

import io.rdmamon.protocol.model.GidEntry;
import io.rdmamon.protocol.model.HostSample;
import io.rdmamon.protocol.model.IbDevice;
import io.rdmamon.protocol.model.IbPort;
import io.rdmamon.protocol.model.SourceStatus;
import io.rdmamon.protocol.model.VerbsPortAttributes;

import java.util.Map;

import static io.rdmamon.protocol.testing.Samples.IPV4_MAPPED_GID;
import static io.rdmamon.protocol.testing.Samples.LINK_LOCAL_GID;
import static io.rdmamon.protocol.testing.Samples.ordered;

/** Fixed hosts that recorded files and expected outputs were made from, built with {@link Samples}. */
public final class FixtureHosts {
    private FixtureHosts() {
    }

    /**
     * The golden host: an mlx5 RoCE port with PFC on priority 3, an mlx5 IB port (legacy error counters,
     * saturated port_xmit_wait) and an eRDMA port without counters/. {@code step} scales the traffic counters
     * so that two samples give known rates. The collector's golden exposition and the recorded protocol 1
     * frames ({@code collector/src/test/resources/wire/v1/golden-*.jsonl}) were made from it: it must not change.
     */
    public static HostSample golden(String node, long timestampMillis, long step) {
        IbPort roce = Samples.rocePort()
                .counters(ordered("port_rcv_data", 4_000_000L * step, // bytes: the reader multiplied by 4
                        "port_xmit_data", 8_000_000L * step, "port_rcv_packets", 1_000L * step,
                        "port_xmit_packets", 2_000L * step, "port_xmit_wait", 7L, "VL15_dropped", 0L))
                .hwCounters(ordered("out_of_sequence", 3L, "np_cnp_sent", 100L * step,
                        "rp_cnp_handled", -2L)) // u64 18446744073709551614: above Long.MAX_VALUE
                .ethtool(ordered( // kernel order (docs/reference/ethtool-and-verbs.md §1.1)
                        "rx_vport_rdma_unicast_bytes", 4_000_000L * step,
                        "rx_prio0_bytes", 1000L, "rx_prio0_packets", 10L, "rx_prio0_discards", 0L,
                        "tx_prio0_bytes", 2000L, "tx_prio0_packets", 20L,
                        "rx_prio3_bytes", 3_000_000L * step, "rx_prio3_packets", 3000L, "rx_prio3_discards", 0L,
                        "tx_prio3_bytes", 6_000_000L, "tx_prio3_packets", 6000L,
                        "rx_prio3_pause", 12L, // PFC on priority 3: mlx5 lists its pause counters
                        "rx_prio3_pause_duration", 2_500_000L, // microseconds
                        "tx_prio3_pause", 4L, "tx_prio3_pause_duration", 500L, "rx_prio3_pause_transition", 6L,
                        "tx_pause_storm_warning_events", 0L, "tx_pause_storm_error_events", 0L))
                .build();
        IbPort ib = Samples.ibPort().number(2).state(1).rate("10 Gb/sec (4X)", 1_250_000_000L)
                .counters(ordered("symbol_error", 2L, "port_xmit_wait", 4_294_967_295L, "port_rcv_data", 16L * step))
                .build();
        IbPort erdma = Samples.erdmaPort().lid(null).gids()
                .hwCounters(ordered("tx_bytes_cnt", 5_000L * step, "rx_bytes_cnt", 6_000L * step,
                        "tx_bps_limit_drop_cnt", 0L))
                .build();
        return Samples.host(node, timestampMillis)
                .devices(Samples.erdmaDevice().ports(erdma).build(), Samples.mlx5Device().ports(roce, ib).build())
                .sources(SourceStatus.ok("sysfs", "mlx5_0"), SourceStatus.ok("sysfs", "erdma_0"),
                        SourceStatus.ok("ethtool", "eth2"),
                        SourceStatus.failed("ethtool", "eth0", "ioctl SIOCETHTOOL ETHTOOL_GSTATS on eth0: Operation not supported"))
                .build();
    }

    /**
     * The shapes the wire codec must carry: a RoCE port with an unsigned counter above Long.MAX_VALUE, an
     * absent counter value, verbs attributes and PFC counters; an eRDMA port without counters/; an unreadable
     * port; a failed source. {@code prio3Pause} null leaves out {@code rx_prio3_pause} (PFC disabled on 3), which
     * changes the layout. The recorded protocol 1 frames of {@code protocol/src/test/resources} were made from it.
     */
    public static HostSample codec(long timestampMillis, long rcvData, Long prio3Pause) {
        Map<String, Long> raw = ordered("rx_vport_rdma_unicast_bytes", 99L,
                "rx_prio0_bytes", 5L, "rx_prio0_packets", 1L, "rx_prio0_discards", 0L,
                "tx_prio0_bytes", 7L, "tx_prio0_packets", 2L,
                "rx_prio3_bytes", 1000L, "rx_prio3_packets", 10L, "tx_prio3_bytes", 2000L, "tx_prio3_packets", 20L);
        if (prio3Pause != null) { // mlx5 lists rx_prioN_pause only while PFC is enabled on N
            raw.put("rx_prio3_pause", prio3Pause);
        }
        raw.putAll(ordered("rx_prio3_pause_duration", 44L, "tx_prio3_pause", 3L, "tx_prio3_pause_duration", 55L,
                "rx_prio3_pause_transition", 1L, "tx_pause_storm_warning_events", 0L));
        IbPort roce = Samples.rocePort()
                .counters(ordered("port_rcv_data", rcvData,
                        "port_xmit_data", -1L, // 2^64-1: an unsigned value above Long.MAX_VALUE
                        "VL15_dropped", 0L,
                        "port_xmit_wait", null)) // read failed this time: absent, not zero
                .hwCounters(ordered("np_cnp_sent", 12L, "rp_cnp_handled", Long.MIN_VALUE)) // 2^63
                .ethtool(raw)
                .verbs(new VerbsPortAttributes(4, 5, 5, 256, 0x04010000L, 0, 0, 2, 32, 5, 2))
                .build();
        IbPort erdma = Samples.erdmaPort().lid(null).gids().hwCounters(ordered("tx_bytes_cnt", 123L)).build();
        return Samples.host("gpu-01", timestampMillis)
                .devices(Samples.erdmaDevice().ports(erdma).build(),
                        Samples.mlx5Device().ports(roce, Samples.unreadablePort(2)).build())
                .sources(SourceStatus.ok("sysfs", "mlx5_0"),
                        SourceStatus.failed("ethtool", "eth9", "ioctl SIOCETHTOOL on eth9: No such device"))
                .build();
    }

    /**
     * An mlx5 RoCE device as the node commands print it: traffic counters, a show_gids table (RoCE v1 and v2 of
     * a link-local and an IPv4-mapped GID, plus a placeholder entry show_gids hides) and PFC on priority 3.
     */
    public static IbDevice commandsMlx5() {
        return Samples.mlx5Device().ports(Samples.rocePort()
                .counters(ordered("port_rcv_data", 4_000L, "port_xmit_data", 8_000L,
                        "port_rcv_packets", 10L, "port_xmit_packets", 20L))
                .hwCounters(ordered("out_of_buffer", 0L, "np_cnp_sent", 5L))
                .gids(new GidEntry(0, LINK_LOCAL_GID, "IB/RoCE v1", "eth2", null),
                        new GidEntry(1, LINK_LOCAL_GID, "RoCE v2", "eth2", null),
                        new GidEntry(2, IPV4_MAPPED_GID, "IB/RoCE v1", "eth2", "192.168.1.2"),
                        new GidEntry(3, IPV4_MAPPED_GID, "RoCE v2", "eth2", "192.168.1.2"),
                        new GidEntry(4, "fe80:0000:0000:0000:0000:0000:0000:0000", "RoCE v2", "eth2", null))
                .ethtool(ordered("rx_prio3_bytes", 1_000L, "tx_prio3_bytes", 2_000L,
                        "rx_prio3_pause", 0L)) // PFC on priority 3: mlx5 lists its pause counter
                .build()).build();
    }

    /** An eRDMA device with its sys_image_guid and {@code hwCounters} on its one port. */
    public static IbDevice erdma(Map<String, Long> hwCounters) {
        return Samples.erdmaDevice().sysImageGuid(Samples.ERDMA_GUID)
                .ports(Samples.erdmaPort().hwCounters(hwCounters).build()).build();
    }
}
