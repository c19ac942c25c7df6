package io.rdmamon.cli.node;

import io.rdmamon.protocol.model.HostSample;
import io.rdmamon.protocol.model.SourceStatus;
import io.rdmamon.protocol.testing.FixtureHosts;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.rdmamon.protocol.testing.Samples.ordered;
import static org.junit.jupiter.api.Assertions.assertEquals;

class SampleSummaryFormatTest {

    @Test
    void summarisesDevicesPortsAndFailedAndUnsupportedSources() {
        HostSample sample = new HostSample("gpu-07", 1_700_000_000_000L,
                List.of(FixtureHosts.commandsMlx5(), FixtureHosts.erdma(ordered("rx_bytes_cnt", 1L))),
                List.of(SourceStatus.ok("sysfs", "mlx5_0"), SourceStatus.ok("sysfs", "erdma_0"),
                        SourceStatus.failed("ethtool", "eth0",
                                "ethtool/eth0/statistics: line 3: no ':' in 'garbage'"),
                        SourceStatus.unsupported("qos", "eth0", "no DCB support on eth0 (EOPNOTSUPP)")));
        assertEquals("""
                node gpu-07, read 2023-11-14T22:13:20Z: 2 devices, 3/4 sources ok
                mlx5_0 port 1: ACTIVE, LinkUp, 100 Gb/sec (4X EDR), Ethernet, netdev eth2, 4 counters, \
                2 hw counters, 5 GIDs, 3 ethtool stats, PFC on priorities [3]
                erdma_0 port 1: ACTIVE, LinkUp, 2.5 Gb/sec (1X SDR), Ethernet, netdev eth0, 0 counters, \
                1 hw counter, 1 GID
                source failures:
                  ethtool eth0: ethtool/eth0/statistics: line 3: no ':' in 'garbage'
                not supported by the device or kernel:
                  qos eth0: no DCB support on eth0 (EOPNOTSUPP)
                """, SampleSummaryFormat.text(sample));
    }
}
