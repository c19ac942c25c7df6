package io.rdmamon.collector.fabric;

import io.rdmamon.protocol.fabric.FabricNode;
import io.rdmamon.protocol.fabric.FabricPort;
import io.rdmamon.protocol.fabric.FabricSweep;
import io.rdmamon.protocol.testing.FabricSweeps;
import io.rdmamon.protocol.wire.FabricWire;
import io.rdmamon.protocol.wire.Frame;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import static io.rdmamon.collector.fabric.SyntheticFabrics.later;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class FabricStoreTest {
    private final AtomicLong now = new AtomicLong(1_000_000);
    private final FabricStore store = new FabricStore(now::get, Duration.ofMinutes(10), Duration.ofHours(1), List.of(),
            () -> HostPorts.NONE);

    private void send(String sweeper, FabricSweep sweep) {
        FabricWire.parts(sweep, 1).forEach(part -> store.accept(sweeper, part));
    }

    @Test
    void aSweepInPartsIsAppliedWhenItsLastPartArrives() {
        List<Frame.Fabric> parts = FabricWire.parts(FabricSweeps.leafAndTwoHosts("s1"), 1);
        assertEquals(3, parts.size());
        store.accept("s1", parts.get(0));
        store.accept("s1", parts.get(1));
        assertTrue(store.fabrics().isEmpty());
        store.accept("s1", parts.get(2));
        FabricState fabric = store.fabrics().get(0);
        assertEquals("0xfe80000000000000/0x0000000000100001", fabric.subnet());
        assertEquals(3, fabric.sweep().nodes().size());
        assertEquals(2, fabric.sweep().links().size());
    }

    @Test
    void aPartOutOfOrderDropsTheSweepAndTheNextSweepStillCounts() {
        List<Frame.Fabric> parts = FabricWire.parts(FabricSweeps.leafAndTwoHosts("s1"), 1);
        store.accept("s1", parts.get(0));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> store.accept("s1", parts.get(2)));
        assertTrue(e.getMessage().contains("part 1 of 3"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> store.accept("s1", parts.get(1)));
        assertTrue(store.fabrics().isEmpty());
        send("s1", FabricSweeps.leafAndTwoHosts("s1"));
        assertEquals(1, store.fabrics().size());
    }

    @Test
    void twoSweepersOfOneSubnetMakeOneFabricThatOutlivesEitherAndGoesStaleWithoutBoth() {
        FabricSweep first = FabricSweeps.leafAndTwoHosts("s1");
        send("s1", first);
        send("s2", later(FabricSweeps.leafAndTwoHosts("s2"), 15_000, true));
        assertEquals(1, store.fabrics().size());
        FabricState fabric = store.fabrics().get(0);
        assertEquals("s2", fabric.sweep().sweeper());
        assertEquals(List.of("s1", "s2"), fabric.sweepers().stream().map(FabricState.SweeperStatus::sweeper).toList());
        // an older sweep arriving late does not win over the newer one
        send("s1", first);
        assertEquals("s2", store.fabrics().get(0).sweep().sweeper());

        store.sweeperGone("s2");
        now.addAndGet(30_000);
        send("s1", later(first, 30_000, true));
        assertFalse(store.fabrics().get(0).stale());
        assertEquals("s1", store.fabrics().get(0).sweep().sweeper());

        store.sweeperGone("s1");
        assertTrue(store.fabrics().get(0).stale());
        now.addAndGet(Duration.ofMinutes(59).toMillis());
        store.expire();
        assertEquals(1, store.fabrics().size());
        now.addAndGet(Duration.ofMinutes(1).toMillis());
        store.expire();
        assertTrue(store.fabrics().isEmpty());
    }

    @Test
    void aFabricNoSweepReachesForStaleAfterIsStaleWhileItsSweeperIsConnected() {
        send("s1", FabricSweeps.leafAndTwoHosts("s1"));
        now.addAndGet(Duration.ofMinutes(11).toMillis());
        store.expire();
        assertTrue(store.fabrics().get(0).stale());
    }

    @Test
    void aCountersOnlySweepUpdatesTheCountersOfTheKnownTopology() {
        send("s1", FabricSweeps.leafAndTwoHosts("s1"));
        FabricSweep base = FabricSweeps.leafAndTwoHosts("s1");
        // only the leaf answers, with new counters, and without the down port 3: the topology keeps it
        FabricNode leaf = base.node(FabricSweeps.LEAF).orElseThrow();
        List<FabricPort> ports = new ArrayList<>();
        for (FabricPort p : leaf.ports().subList(0, 2)) {
            ports.add(p.withCounters(p.counterSets(), Map.of("SymbolErrorCounter", 70L)));
        }
        send("s1", later(base.withNodes(List.of(new FabricNode(leaf.guid(), leaf.type(), leaf.description(), ports))),
                15_000, false));
        FabricSweep held = store.fabrics().get(0).sweep();
        assertEquals(3, held.nodes().size());
        FabricNode heldLeaf = held.node(FabricSweeps.LEAF).orElseThrow();
        assertEquals(3, heldLeaf.ports().size());
        assertEquals(70L, heldLeaf.port(2).orElseThrow().counters().get("SymbolErrorCounter"));
        assertEquals(0L, heldLeaf.port(3).orElseThrow().counters().get("SymbolErrorCounter"));
        assertEquals(0L, held.node(FabricSweeps.H2).orElseThrow().port(1).orElseThrow().counters()
                .get("SymbolErrorCounter"));
    }

    @Test
    void aHostPortLearnsItsSwitchPortAndALinkItsCountersOverTime() {
        send("s1", FabricSweeps.leafAndTwoHosts("s1"));
        now.addAndGet(15_000);
        send("s1", later(FabricSweeps.leafAndTwoHosts("s1"), 15_000, false));
        LinkEnds.End leafPort = store.switchPortOf(FabricSweeps.H2, 1).orElseThrow();
        assertEquals("leaf1", leafPort.description());
        assertEquals(2, leafPort.port());
        assertTrue(store.switchPortOf(FabricSweeps.LEAF, 2).isEmpty(), "a switch port is no host port");

        String subnet = store.fabrics().get(0).subnet();
        FabricStore.LinkHistory history = store.history(subnet, FabricSweeps.H2, 1).orElseThrow();
        assertEquals(List.of(1_000_000L, 1_015_000L), history.times());
        assertEquals(List.of(50L, 50L), history.series().get(FabricSweeps.LEAF + "/2").get("SymbolErrorCounter"));
        assertEquals(List.of(0L, 0L), history.series().get(FabricSweeps.H2 + "/1").get("SymbolErrorCounter"));
        assertTrue(store.history(subnet, FabricSweeps.LEAF, 3).isEmpty(), "port 3 has no link");
        assertTrue(store.history("0xfe80000000000000/other", FabricSweeps.H2, 1).isEmpty());
    }

    @Test
    void moreFabricsThanTheBoundAreRefused() {
        for (int i = 0; i < FabricStore.MAX_FABRICS; i++) {
            FabricSweep s = FabricSweeps.leafAndTwoHosts("s1");
            send("s1", new FabricSweep(s.subnetPrefix(), i, null, "s1", s.timeMillis(), 1, true, true, List.of(),
                    s.nodes()));
        }
        FabricSweep s = FabricSweeps.leafAndTwoHosts("s1");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> send("s1",
                new FabricSweep(s.subnetPrefix(), 99, null, "s1", s.timeMillis(), 1, true, true, List.of(), s.nodes())));
        assertTrue(e.getMessage().contains("holds " + FabricStore.MAX_FABRICS + " fabrics"), e.getMessage());
    }
}
