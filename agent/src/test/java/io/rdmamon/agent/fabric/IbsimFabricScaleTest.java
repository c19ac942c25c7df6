package io.rdmamon.agent.fabric;

import io.rdmamon.protocol.fabric.FabricSweep;
import io.rdmamon.protocol.testing.Slow;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The scale fabric in ibsim (1,152 HCAs, 73 switches, 4,608 port ends): rdmamon's full sweep (discovery and
 * every port's counters) and its counters-only sweep, side by side with {@code ibnetdiscover} and
 * {@code ibqueryerrors} on the same fabric in the same run, with the JVM's CPU and heap; the figures go to
 * docs/performance.md. The tools are timed as children of this JVM, the same way the sweep runs them.
 */
@Slow
class IbsimFabricScaleTest {
    /**
     * Rounds of the tools then rdmamon, side by side; the medians are the figures. Other builds share the two cores and
     * one burst of theirs doubled a round's times here, on either side: a median of seven is not moved by two.
     */
    private static final int ROUNDS = 7;
    private static final int WARM_UP_SWEEPS = 8;

    @TempDir
    Path dir;

    @Test
    void aSweepOfTheScaleFabricBesideTheDiagsTools() throws Exception {
        Assumptions.assumeTrue(Ibsim.installed(), "ibsim-utils, opensm and infiniband-diags are not installed");
        FatTreeNetFile tree = FatTreeNetFile.scale();
        try (Ibsim ibsim = new Ibsim(dir, tree.text())) {
            DiagsFabricReader reader = new DiagsFabricReader(new FabricOptions(null, null, Duration.ofSeconds(60),
                    Duration.ofSeconds(15), Duration.ofMinutes(5), ibsim.environment()), Clock.systemUTC());
            // warm-up: the JVM's classes and JIT. The parsers reach their steady cost (about 55 ms of CPU for a full
            // sweep's outputs here) only after six or so sweeps; before that the JIT's compiler threads take the
            // cores the tools and ibsim need. A sweeper runs every 15 s for days: its steady state is what counts.
            for (int i = 0; i < WARM_UP_SWEEPS; i++) {
                reader.sweep("h0-0", i % 2 == 0);
            }
            MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
            com.sun.management.OperatingSystemMXBean os =
                    (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
            long[] tools = new long[ROUNDS];
            long[] fulls = new long[ROUNDS];
            long[] counterSweeps = new long[ROUNDS];
            for (int round = 1; round <= ROUNDS; round++) {
                long diagsStart = System.nanoTime();
                ibsim.run("ibnetdiscover");
                long discovered = System.nanoTime();
                ibsim.run("ibqueryerrors", "--skip-sl");
                long diagsEnd = System.nanoTime();

                long cpuBefore = os.getProcessCpuTime();
                long fullStart = System.nanoTime();
                FabricSweep full = reader.sweep("h0-0", true);
                long fullEnd = System.nanoTime();
                FabricSweep counters = reader.sweep("h0-0", false);
                long countersEnd = System.nanoTime();
                long cpu = os.getProcessCpuTime() - cpuBefore;
                System.gc();
                long heap = memory.getHeapMemoryUsage().getUsed();

                assertEquals(List.of(), full.problems());
                assertEquals(tree.nodeCount(), full.nodes().size());
                assertEquals(tree.cables().size(), full.links().size());
                assertTrue(counters.success() && !counters.topology());
                System.out.printf("fabric scale round %d: ibnetdiscover %d ms + ibqueryerrors %d ms = %d ms; rdmamon "
                                + "full sweep %d ms, counters-only sweep %d ms; JVM CPU for both sweeps %d ms; heap "
                                + "after GC %.1f MiB%n", round, ms(discovered - diagsStart), ms(diagsEnd - discovered),
                        ms(diagsEnd - diagsStart), ms(fullEnd - fullStart), ms(countersEnd - fullEnd),
                        cpu / 1_000_000, heap / 1048576.0);
                tools[round - 1] = ms(diagsEnd - diagsStart);
                fulls[round - 1] = ms(fullEnd - fullStart);
                counterSweeps[round - 1] = ms(countersEnd - fullEnd);
            }
            System.out.printf("fabric scale medians of %d rounds: ibnetdiscover + ibqueryerrors %d ms; rdmamon full sweep "
                            + "%d ms (%.2fx the tools), counters-only sweep %d ms%n", ROUNDS, median(tools),
                    median(fulls), (double) median(fulls) / median(tools), median(counterSweeps));
        }
    }

    private static long median(long[] values) {
        long[] sorted = values.clone();
        java.util.Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }

    private static long ms(long nanos) {
        return nanos / 1_000_000;
    }
}
