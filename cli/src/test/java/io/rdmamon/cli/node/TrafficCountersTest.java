package io.rdmamon.cli.node;

import io.rdmamon.protocol.model.IbDevice;
import io.rdmamon.protocol.testing.FixtureHosts;
import io.rdmamon.protocol.testing.Samples;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static io.rdmamon.protocol.testing.Samples.ordered;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TrafficCountersTest {

    @Test
    void erdmaTrafficComesFromHwCounters() {
        IbDevice erdma = FixtureHosts.erdma(ordered("tx_reqs_cnt", 7L, "tx_packets_cnt", 20L, "tx_bytes_cnt", 2_000L,
                "rx_packets_cnt", 10L, "rx_bytes_cnt", 1_000L, "rx_bps_limit_drop_cnt", 3L));
        assertEquals(new TrafficCounters(1_000L, 10L, 2_000L, 20L), TrafficCounters.of(erdma));
    }

    @Test
    void hwPrefixedErdmaNamesAreAccepted() {
        IbDevice erdma = FixtureHosts.erdma(ordered("hw_tx_packets_cnt", 2L, "hw_tx_bytes_cnt", 200L,
                "hw_rx_packets_cnt", 1L, "hw_rx_bytes_cnt", 100L));
        assertEquals(new TrafficCounters(100L, 1L, 200L, 2L), TrafficCounters.of(erdma));
    }

    @Test
    void otherDevicesUsePmaCountersSummedOverPorts() {
        assertEquals(new TrafficCounters(4_000L, 10L, 8_000L, 20L), TrafficCounters.of(FixtureHosts.commandsMlx5()));
        IbDevice twoPorts = new IbDevice("mlx4_0", 1, "CA", null, null, null, null, null, List.of(
                Samples.rocePort().rate(null, null).netdev(null).gids()
                        .counters(ordered("port_rcv_data", 8L, "port_xmit_data", 4L)).build(),
                Samples.rocePort().number(2).rate(null, null).netdev(null).gids()
                        .counters(ordered("port_rcv_data", 16L)).build()));
        // absent on every port stays absent (null), not zero
        assertEquals(new TrafficCounters(24L, null, 4L, null), TrafficCounters.of(twoPorts));
    }

    @Test
    void aDeviceWithoutTrafficCountersIsEmpty() {
        assertTrue(TrafficCounters.of(FixtureHosts.erdma(ordered("tx_reqs_cnt", 1L))).isEmpty());
    }
}
