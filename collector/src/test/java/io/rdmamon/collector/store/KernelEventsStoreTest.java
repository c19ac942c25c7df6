package io.rdmamon.collector.store;

import io.rdmamon.protocol.model.KernelEvents;
import io.rdmamon.protocol.testing.FixtureHosts;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The kernel events an agent reports: kept with the node, and each record handed to the sinks once. */
class KernelEventsStoreTest {
    private final AtomicLong clock = new AtomicLong(1_000_000);
    private final NodeStore store = new NodeStore(clock::get, 3, 600_000, 10, 10, 60_000);

    private static KernelEvents.Event event(long seq) {
        return new KernelEvents.Event(seq, 1_000_000, seq * 10, 2, "firmware_fatal", "critical", "mlx5_0", "1",
                "mlx5_core 0000:3b:00.0: Fatal error " + seq + " detected");
    }

    private static KernelEvents events(long... seqs) {
        List<KernelEvents.Event> recent = new ArrayList<>();
        for (long seq : seqs) {
            recent.add(event(seq));
        }
        return new KernelEvents(1, 0, List.of(new KernelEvents.Count("firmware_fatal", "critical", "mlx5_0", "1",
                seqs.length)), recent);
    }

    @Test
    void keptAndToldOnce() {
        List<Long> told = new ArrayList<>();
        store.addKernelEventSink((node, fresh) -> fresh.forEach(e -> told.add(e.seq())));
        store.connect("n", "v", 1000);
        store.accept(FixtureHosts.golden("n", clock.get(), 1), null, 1);

        store.kernelEvents("n", events(5));
        assertEquals(events(5), store.kernelEvents("n").orElseThrow());
        store.kernelEvents("n", events(5, 6));
        clock.addAndGet(1000);
        store.accept(FixtureHosts.golden("n", clock.get(), 2), null, 2);
        assertEquals(events(5, 6), store.kernelEvents("n").orElseThrow());
        assertEquals(List.of(5L, 6L), told);

        // the host rebooted: its kernel numbers from 0 again, and every record is new
        store.kernelEvents("n", events(1));
        assertEquals(List.of(5L, 6L, 1L), told);
    }

    @Test
    void unknownNodesAreIgnored() {
        store.kernelEvents("nobody", events(1));
        assertTrue(store.kernelEvents("nobody").isEmpty());
    }
}
