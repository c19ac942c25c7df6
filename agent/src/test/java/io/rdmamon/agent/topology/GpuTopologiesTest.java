package io.rdmamon.agent.topology;

import io.rdmamon.protocol.model.GpuTopology;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

/** The topology is reused for the slow cadence, and read again at once when a PCI function comes or goes. */
class GpuTopologiesTest {
    @TempDir
    Path root;

    @Test
    void aReadingIsReusedUntilTheRefreshIntervalUnlessAPciFunctionIsHotPlugged() {
        PciTree tree = TopologyFixtures.consumer(root);
        AtomicLong clock = new AtomicLong(1_000);
        GpuTopologies topologies = new GpuTopologies(root, new TopologyReader(root), Duration.ofMinutes(5), clock::get);

        GpuTopology first = topologies.current();
        assertEquals(1, first.nics().size());
        clock.addAndGet(60_000);
        assertSame(first, topologies.current(), "reused within the refresh interval");

        // a second NIC hot-plugged under the GPU's root port: read again at once, a minute into the interval
        tree.hostBridge("pci0000:00", 0, "0-7").bridge("0000:00:1d.0", TopologyFixtures.GEN4, 8, null)
                .nic("0000:03:00.0", "mlx5_1");
        GpuTopology plugged = topologies.current();
        assertEquals(2, plugged.nics().size(), plugged.toString());
        assertSame(plugged, topologies.current(), "and reused again while the functions stay");

        clock.addAndGet(Duration.ofMinutes(5).toMillis());
        assertEquals(plugged, topologies.current(), "read again after the interval, nothing changed");
    }
}
