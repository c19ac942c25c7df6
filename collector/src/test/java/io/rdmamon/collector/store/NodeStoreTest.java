package io.rdmamon.collector.store;

import io.rdmamon.protocol.model.HostSample;
import io.rdmamon.protocol.testing.FixtureHosts;
import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

/** The order of agent samples: by agent run and seq, bounded against the collector's clock. */
class NodeStoreTest {
    private static final long NOW = 1_700_000_000_000L;
    private final AtomicLong clock = new AtomicLong(NOW);
    private final NodeStore store = new NodeStore(clock::get, 3, 600_000, 10, 10, 60_000);

    private NodeStore.Ingest offer(String instance, long seq, long timestampMillis) {
        return store.accept(FixtureHosts.golden("n", timestampMillis, seq), instance, seq);
    }

    @Test
    void anAgentWithoutInstanceIdIsDeduplicatedBySeqAndTimestampTogether() {
        store.connect("n", "old", 1000);
        assertEquals(NodeStore.Ingest.APPLIED, offer(null, 1, NOW));
        assertEquals(NodeStore.Ingest.APPLIED, offer(null, 2, NOW + 1000));
        assertEquals(NodeStore.Ingest.DUPLICATE, offer(null, 2, NOW + 1000), "a replay of the same run");
        // restarted: seq from 1 again, but a fresh sample
        assertEquals(NodeStore.Ingest.APPLIED, offer(null, 1, NOW + 2000));
        assertEquals(NodeStore.Ingest.APPLIED, offer(null, 2, NOW + 3000));
    }

    @Test
    void aSampleAheadOfTheClockIsRefusedAndCountedAndTheNextOneApplies() {
        store.connect("n", "new", 1000);
        assertEquals(NodeStore.Ingest.APPLIED, offer("r", 1, NOW));
        assertEquals(NodeStore.Ingest.AHEAD_OF_CLOCK, offer("r", 2, NOW + 60_001));
        assertEquals(NodeStore.Ingest.APPLIED, offer("r", 3, NOW + 60_000), "at the skew bound");
        assertEquals(NodeStore.Ingest.APPLIED, offer("r", 4, NOW - 5000), "the agent's clock stepped back");
        assertEquals(NodeStore.Ingest.DUPLICATE, offer("r", 3, NOW + 60_000));
        assertEquals(Map.of(NodeStore.REFUSED_AHEAD_OF_CLOCK, 1L), store.node("n").orElseThrow().issues().refusedSamples());
        assertEquals(NOW - 5000, store.node("n").orElseThrow().lastSample().timestampMillis());
    }

    @Test
    void lastSamplesAreTheNewestAndTheOneAppliedBeforeItNotARefusedOne() {
        assertEquals(Optional.empty(), store.lastSamples("n"), "unknown node");
        store.connect("n", "new", 1000);
        assertEquals(Optional.empty(), store.lastSamples("n"), "no sample yet");
        offer("r", 1, NOW);
        HostSample first = store.node("n").orElseThrow().lastSample();
        assertEquals(new NodeStore.LastSamples(first, null), store.lastSamples("n").orElseThrow());
        offer("r", 2, NOW + 1000);
        offer("r", 3, NOW + 60_001); // refused: ahead of the clock
        offer("r", 2, NOW + 1000); // a replay
        NodeStore.LastSamples held = store.lastSamples("n").orElseThrow();
        assertEquals(NOW + 1000, held.last().timestampMillis());
        assertSame(first, held.previous());
    }
}
