package io.rdmamon.cli.node;

import io.rdmamon.protocol.model.IbDevice;
import io.rdmamon.protocol.testing.FixtureHosts;
import io.rdmamon.protocol.testing.Samples;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Set;

import static io.rdmamon.protocol.testing.Samples.ordered;
import static org.junit.jupiter.api.Assertions.assertEquals;

class PerfCountersTest {

    @Test
    void deviceCountersComeInSourceOrderThenTheNetdevs() {
        PerfCounters counters = PerfCounters.ofDevice(FixtureHosts.commandsMlx5());
        assertEquals(List.of("port_rcv_data", "port_xmit_data", "port_rcv_packets", "port_xmit_packets",
                        "out_of_buffer", "np_cnp_sent", "rx_prio3_bytes", "tx_prio3_bytes", "rx_prio3_pause"),
                List.copyOf(counters.values().keySet()));
        assertEquals(Set.of("port_rcv_data", "port_xmit_data", "rx_prio3_bytes", "tx_prio3_bytes"),
                counters.byteCounters());
    }

    @Test
    void multiPortDevicesKeepPortsApartAndClashesApart() {
        IbDevice twoPorts = new IbDevice("mlx4_0", 1, "CA", null, null, "2.31.5050", "MT4099", null, List.of(
                qdrPort(1).netdev("ib0").counters(ordered("port_rcv_data", 8L))
                        .ethtool(ordered("port_rcv_data", 1L)).build(),
                qdrPort(2).counters(ordered("port_rcv_data", 16L)).build()));
        PerfCounters counters = PerfCounters.ofDevice(twoPorts);
        assertEquals(ordered("1/port_rcv_data", 8L, "1/ib0:port_rcv_data", 1L, "2/port_rcv_data", 16L),
                counters.values());
        // the PMA data counters count bytes; an ethtool statistic of the same name is not known to
        assertEquals(Set.of("1/port_rcv_data", "2/port_rcv_data"), counters.byteCounters());
    }

    @Test
    void netdevCountersAreTheEthtoolStatisticsInOrder() {
        PerfCounters counters = PerfCounters.ofNetdev(Samples.rocePort()
                .ethtool(ordered("rx_packets", 1L, "rx_bytes", 2L, "rx_64_to_127_bytes_phy", 3L)).build().ethtool());
        assertEquals(List.of("rx_packets", "rx_bytes", "rx_64_to_127_bytes_phy"),
                List.copyOf(counters.values().keySet()));
        assertEquals(Set.of("rx_bytes"), counters.byteCounters());
    }

    /** A 40 Gb/s port whose rate in bytes is unknown, without netdev or GIDs. */
    private static Samples.PortBuilder qdrPort(int number) {
        return Samples.rocePort().number(number).rate("40 Gb/sec (4X QDR)", null).netdev(null).gids();
    }
}
