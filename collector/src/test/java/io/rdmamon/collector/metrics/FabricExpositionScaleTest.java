package io.rdmamon.collector.metrics;

import io.rdmamon.collector.fabric.FabricStore;
import io.rdmamon.collector.fabric.SyntheticFabrics;
import io.rdmamon.protocol.exposition.MetricSelection;
import io.rdmamon.protocol.fabric.FabricSweep;
import io.rdmamon.protocol.testing.Slow;
import io.rdmamon.protocol.wire.FabricWire;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The fabric families at the scale docs/performance.md quotes (about 40 s: the slow tier). */
@Slow
class FabricExpositionScaleTest {
    /**
     * The render of a 40,000-port fabric (250 leaves of 72 hosts and 8 uplinks, 8 spines), as docs/performance.md
     * quotes it: the series per profile, the bytes and the time of the best of a few scrapes.
     */
    @Test
    void aFortyThousandPortFabricRendersInBoundedTimeUnderEveryProfile() throws IOException {
        FabricSweep sweep = SyntheticFabrics.fatTree(250, 8, 72, 1_764_367_084_000L);
        assertEquals(40_000, sweep.nodes().stream().mapToInt(n -> n.ports().size()).sum());
        FabricStore store = new FabricStore(System::currentTimeMillis);
        FabricWire.parts(sweep, 2048).forEach(part -> store.accept("sweeper", part));
        FabricExpositionTest.scrape(store, MetricSelection.FULL); // the JIT's warm-up
        for (String profile : List.of("full", "standard", "minimal")) {
            MetricSelection selection = MetricSelection.parse(profile);
            long best = Long.MAX_VALUE;
            String text = "";
            for (int i = 0; i < 3; i++) {
                long start = System.nanoTime();
                text = FabricExpositionTest.scrape(store, selection);
                best = Math.min(best, System.nanoTime() - start);
            }
            long series = text.lines().filter(l -> l.startsWith("rdma_fabric")).count();
            System.out.printf("fabric render, 40,000 ports, %s: %,d series, %,d bytes, %d ms%n", profile, series,
                    text.length(), best / 1_000_000);
            assertTrue(best < 10_000_000_000L, profile + " took " + best / 1_000_000 + " ms");
        }
    }
}
