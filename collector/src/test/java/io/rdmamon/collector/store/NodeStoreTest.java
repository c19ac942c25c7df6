package io.rdmamon.collector.store;

import io.rdmamon.protocol.model.HostSample;
import io.rdmamon.protocol.testing.FixtureHosts;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

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

    @Test
    void pastTheHistoryBudgetEveryPortKeepsFewerPointsTheOldestShedAndCountedAndTheyComeBackWhenNodesGo() {
        // the fixture host has 3 ports: a point costs 8 + 3 × 16 = 56 bytes per node; the budget holds 2 full nodes
        NodeStore budgeted = new NodeStore(clock::get, 3, 600_000, 10, 10, 60_000, 2 * 10 * 56);
        budgeted.connect("a", "v", 1000);
        for (long seq = 1; seq <= 12; seq++) {
            clock.set(NOW + seq * 1000);
            budgeted.accept(FixtureHosts.golden("a", NOW + seq * 1000, seq), "r", seq);
        }
        assertEquals(10, budgeted.historyLimit());
        assertEquals(10, budgeted.history("a").orElseThrow().get("mlx5_0/1").size());
        assertEquals(0, budgeted.historyShedPoints(), "points aged out of a full ring are not shed");
        for (String node : new String[]{"b", "c", "d"}) {
            budgeted.connect(node, "v", 1000);
            budgeted.accept(FixtureHosts.golden(node, NOW + 13_000, 1), "r", 1);
        }
        assertEquals(2 * 10 * 56 / (4 * 56), budgeted.historyLimit(), "4 nodes share a budget for 2 × 10 points");
        budgeted.expire(); // reaches "a", which has not sent since
        assertEquals(List.of(NOW + 8000, NOW + 9000, NOW + 10_000, NOW + 11_000, NOW + 12_000),
                budgeted.history("a").orElseThrow().get("mlx5_0/1").stream().map(RatePoint::timestampMillis).toList(),
                "the newest five points");
        assertEquals(3 * 5, budgeted.historyShedPoints(), "five points of each of three ports");
        assertTrue(budgeted.historyBytes() <= 2 * 10 * 56, "within the budget: " + budgeted.historyBytes());
        // b, c and d go silent and expire: a's ring grows back as its samples arrive
        clock.set(NOW + 13_000 + 600_001);
        budgeted.touch("a");
        assertEquals(List.of("b", "c", "d"), budgeted.expire().stream().sorted().toList());
        assertEquals(10, budgeted.historyLimit());
        for (long seq = 13; seq <= 20; seq++) {
            budgeted.accept(FixtureHosts.golden("a", NOW + 600_000 + seq * 1000, seq), "r", seq);
        }
        assertEquals(10, budgeted.history("a").orElseThrow().get("mlx5_0/1").size());
        assertEquals(3 * 5, budgeted.historyShedPoints());
    }

    @Test
    void everyPointDroppedBecauseOfTheBudgetIsCountedAlsoWhenTheRingNeverHeldTheFullHistory() {
        // issue 23 item 9: four 3-port nodes in a budget for two; the rings never reach historyPoints (10), they fill
        // at the budget's 5 and every further point drops the oldest one, which the full history would have kept
        NodeStore budgeted = new NodeStore(clock::get, 3, 600_000, 10, 10, 60_000, 2 * 10 * 56);
        String[] names = {"a", "b", "c", "d"};
        for (String node : names) {
            budgeted.connect(node, "v", 1000);
        }
        int samples = 20;
        for (long seq = 1; seq <= samples; seq++) {
            clock.set(NOW + seq * 1000);
            for (String node : names) {
                budgeted.accept(FixtureHosts.golden(node, NOW + seq * 1000, seq), "r", seq);
            }
        }
        assertEquals(5, budgeted.historyLimit());
        long held = 0;
        long ports = 0;
        for (String node : names) {
            for (List<RatePoint> points : budgeted.history(node).orElseThrow().values()) {
                assertEquals(5, points.size());
                held += points.size();
                ports++;
            }
        }
        assertEquals(4 * 3, ports);
        assertEquals(ports * samples - held, budgeted.historyShedPoints(), "every point dropped under the budget");
        // the nodes go, one stays: its ring grows to the full history and then ages out without shedding
        clock.set(NOW + samples * 1000 + 600_001);
        budgeted.touch("a");
        budgeted.expire();
        long shed = budgeted.historyShedPoints();
        for (long seq = samples + 1; seq <= samples + 30; seq++) {
            clock.set(NOW + 600_001 + seq * 1000);
            budgeted.accept(FixtureHosts.golden("a", NOW + 600_001 + seq * 1000, seq), "r", seq);
        }
        assertEquals(10, budgeted.history("a").orElseThrow().get("mlx5_0/1").size());
        assertEquals(shed, budgeted.historyShedPoints(), "points aging out of a full historyPoints ring are not shed");
    }

    @Test
    void aHelloWhoseNodeTheHeapCannotTakeIsRefusedAHeldNodeIsNotAndExpiryMakesRoom() {
        // historyPoints 10, history budget 2,000 bytes: a node of 100 bytes of state whose full history is 10 × 150
        NodeStore admitting = new NodeStore(clock::get, 3, 600_000, 10, 10, 60_000, 2_000);
        admitting.admissionLimit(2_000 + 3 * 100);
        NodeCost cost = new NodeCost(100, 150);
        assertEquals(NodeStore.Admission.ADMITTED, admitting.connect("a", "v", 1000, cost));
        assertEquals(100 + 1_500, admitting.estimatedBytes());
        assertEquals(NodeStore.Admission.ADMITTED, admitting.connect("b", "v", 1000, cost));
        assertEquals(200 + 2_000, admitting.estimatedBytes(), "the histories count up to their budget");
        assertEquals(NodeStore.Admission.ADMITTED, admitting.connect("c", "v", 1000, cost));
        assertEquals(NodeStore.Admission.HEAP, admitting.connect("d", "v", 1000, cost), "2,400 bytes past 2,300");
        assertTrue(admitting.node("d").isEmpty(), "a refused node is not held");
        assertEquals(300 + 2_000, admitting.estimatedBytes());
        // a node held already reconnects at the same cost; it may not grow past the limit
        assertEquals(NodeStore.Admission.ADMITTED, admitting.connect("a", "v", 1000, cost));
        assertEquals(NodeStore.Admission.HEAP, admitting.connect("a", "v", 1000, new NodeCost(101, 150)));
        assertTrue(admitting.relayout("a", new NodeCost(50, 150)), "shrinking always fits");
        assertEquals(false, admitting.relayout("a", new NodeCost(151, 150)));
        assertEquals(250 + 2_000, admitting.estimatedBytes());
        // b and c go silent and expire: their share is free again
        clock.set(NOW + 600_001);
        admitting.touch("a");
        assertEquals(List.of("b", "c"), admitting.expire().stream().sorted().toList());
        assertEquals(50 + 1_500, admitting.estimatedBytes());
        assertEquals(NodeStore.Admission.ADMITTED, admitting.connect("d", "v", 1000, cost));
        assertTrue(admitting.remove("d"));
        assertEquals(50 + 1_500, admitting.estimatedBytes());
        // the node limit is still its own reason
        NodeStore small = new NodeStore(clock::get, 3, 600_000, 10, 1, 60_000, 2_000);
        assertEquals(NodeStore.Admission.ADMITTED, small.connect("a", "v", 1000, cost));
        assertEquals(NodeStore.Admission.NODE_LIMIT, small.connect("b", "v", 1000, cost));
    }

    @Test
    void theEstimateOfALayoutGrowsWithItsPortsSlotsAndGids() {
        io.rdmamon.protocol.wire.HostLayout eight = io.rdmamon.protocol.wire.HostLayout.of(
                FixtureHosts.golden("n", NOW, 1));
        NodeCost cost = NodeCost.of(eight);
        int ports = eight.devices().stream().mapToInt(d -> d.ports().size()).sum();
        long gids = eight.devices().stream().flatMap(d -> d.ports().stream()).mapToLong(p -> p.gids().size()).sum();
        assertEquals(NodeCost.NODE_BYTES + ports * NodeCost.PORT_BYTES + eight.slotCount() * NodeCost.SLOT_BYTES
                + gids * NodeCost.GID_BYTES, cost.stateBytes());
        assertEquals(8 + 16L * ports, cost.historyBytesPerPoint());
        assertEquals(900 * (8 + 16L * ports), cost.fullHistoryBytes(900));
        // -Xmx128m: half of it less the idle process and the 8 MiB of hellos that may wait
        assertEquals(64L * 1048576 - 24 * 1048576 - 8 * 1048576,
                NodeCost.admissionLimit(128L * 1048576, 8 * 1048576));
    }
}
