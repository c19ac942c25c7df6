package io.rdmamon.cli.node;

import io.rdmamon.protocol.model.EthtoolStats;
import io.rdmamon.protocol.model.GidEntry;
import io.rdmamon.protocol.model.IbDevice;
import io.rdmamon.protocol.model.IbPort;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Model records as a reader would produce them for a RoCE mlx5 host and an eRDMA host. */
final class Models {
    private Models() {
    }

    static final String LINK_LOCAL = "fe80:0000:0000:0000:0e42:a1ff:fe12:3456";
    static final String IPV4_MAPPED = "0000:0000:0000:0000:0000:ffff:c0a8:0102";

    static IbDevice mlx5() {
        return new IbDevice("mlx5_0", 1, "CA", "0c42:a103:0065:5c2a", "0c42:a103:0065:5c2a", "16.35.2000",
                "MT4119", "MT_0000000012", List.of(mlx5Port(ordered(
                        "port_rcv_data", 4_000L, "port_xmit_data", 8_000L,
                        "port_rcv_packets", 10L, "port_xmit_packets", 20L))));
    }

    static IbPort mlx5Port(Map<String, Long> counters) {
        return port(1, "100 Gb/sec (4X EDR)", 12_500_000_000L, "eth2", counters,
                ordered("out_of_buffer", 0L, "np_cnp_sent", 5L),
                List.of(new GidEntry(0, LINK_LOCAL, "IB/RoCE v1", "eth2", null),
                        new GidEntry(1, LINK_LOCAL, "RoCE v2", "eth2", null),
                        new GidEntry(2, IPV4_MAPPED, "IB/RoCE v1", "eth2", "192.168.1.2"),
                        new GidEntry(3, IPV4_MAPPED, "RoCE v2", "eth2", "192.168.1.2"),
                        // a placeholder entry show_gids hides
                        new GidEntry(4, "fe80:0000:0000:0000:0000:0000:0000:0000", "RoCE v2", "eth2", null)),
                ethtool("eth2", ordered("rx_prio3_bytes", 1_000L, "tx_prio3_bytes", 2_000L,
                        "rx_prio3_pause", 0L))); // PFC on priority 3: mlx5 lists its pause counter
    }

    static IbDevice erdma(Map<String, Long> hwCounters) {
        return new IbDevice("erdma_0", 4, "RNIC", "0216:3eff:fe01:0203", "0216:3eff:fe01:0203", "0.2.0",
                null, null, List.of(port(1, "2.5 Gb/sec (1X SDR)", 312_500_000L, "eth0", Map.of(), hwCounters,
                        List.of(new GidEntry(0, "0016:3e01:0203:0000:0000:0000:0000:0000", null, null, null)),
                        null)));
    }

    static IbPort port(int number, String rate, Long rateBytes, String netdev, Map<String, Long> counters,
                       Map<String, Long> hwCounters, List<GidEntry> gids, EthtoolStats ethtool) {
        return new IbPort(number, 4, "ACTIVE", 5, "LinkUp", rate, rateBytes, "Ethernet", "0x0", netdev,
                counters, hwCounters, gids, ethtool, null);
    }

    static EthtoolStats ethtool(String netdev, Map<String, Long> raw) {
        return EthtoolStats.of(netdev, raw);
    }

    /** An insertion-ordered map from alternating name, value arguments. */
    static Map<String, Long> ordered(Object... nameValue) {
        Map<String, Long> map = new LinkedHashMap<>();
        for (int i = 0; i < nameValue.length; i += 2) {
            map.put((String) nameValue[i], (Long) nameValue[i + 1]);
        }
        return map;
    }
}
