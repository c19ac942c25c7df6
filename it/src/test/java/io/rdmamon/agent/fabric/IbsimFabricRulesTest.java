package io.rdmamon.agent.fabric;

import io.rdmamon.collector.diagnosis.rules.FabricCableErrors;
import io.rdmamon.collector.diagnosis.rules.RuleTable;
import io.rdmamon.collector.fabric.FabricStore;
import io.rdmamon.collector.fabric.FabricVerdict;
import io.rdmamon.collector.fabric.HostPorts;
import io.rdmamon.protocol.fabric.FabricSweep;
import io.rdmamon.protocol.wire.FabricWire;
import io.rdmamon.protocol.wire.Frame;
import io.rdmamon.protocol.wire.FrameCodec;
import io.rdmamon.protocol.wire.WireFormat;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The four fabric rules proven on a simulated subnet (docs/fabric.md "How it is proven"): a small two-level fat tree
 * in ibsim, LIDs from the real opensm, swept by the agent's reader (the diags tools), each sweep sent through the
 * wire codec into the collector's {@link FabricStore} with the real rules, as the ingest applies it; the verdicts read
 * are what {@code /api/fabric} serves. A healthy fabric raises nothing; each fault injected on ibsim's console raises
 * its rule on exactly its link, named by both ends, and nothing else, and clears when the fault goes. The store's
 * clock is the test's, so that the cable rule's hold (docs/diagnosis.md) passes without waiting it out.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class IbsimFabricRulesTest {
    /** 3 leaves of 2 hosts, 2 spines: leaf l's port 3 goes to spine0's port l+1, its port 4 to spine1's. */
    private static final FatTreeNetFile TREE = new FatTreeNetFile(3, 2, 2, 1, null);
    private static final long SWEEP_INTERVAL = Duration.ofSeconds(15).toMillis();
    private static final String LEAF1_SPINE0 = FatTreeNetFile.cable("leaf1", 3, "spine0", 2);

    @TempDir
    static Path dir;
    private static Ibsim ibsim;
    private static DiagsFabricReader reader;
    private static final AtomicLong now = new AtomicLong(1_764_367_084_000L);
    private static final FrameCodec codec = new FrameCodec(WireFormat.DEFAULT_MAX_FRAME_BYTES, "test");
    private static final FabricStore store = new FabricStore(now::get, FabricStore.DEFAULT_STALE_AFTER,
            FabricStore.DEFAULT_DROP_AFTER, RuleTable.FABRIC_RULES, () -> HostPorts.NONE);

    @BeforeAll
    static void startTheSubnet() throws Exception {
        Assumptions.assumeTrue(Ibsim.installed(), "ibsim-utils, opensm and infiniband-diags are not installed "
                + "(scripts/test.sh installs them)");
        ibsim = new Ibsim(dir, TREE.text());
        reader = reader(ibsim);
    }

    @AfterAll
    static void stop() throws Exception {
        if (ibsim != null) {
            ibsim.close();
        }
    }

    @Test
    @Order(1)
    void aHealthyFabricRaisesNothing() throws Exception {
        assertEquals(Set.of(), sweep(store, reader, true), "first topology sweep");
        assertEquals(Set.of(), sweep(store, reader, false), "counters");
        assertEquals(Set.of(), sweep(store, reader, false), "counters again");
        assertEquals(Set.of(), sweep(store, reader, true), "topology again");
    }

    @Test
    @Order(2)
    void symbolErrorsRaiseCableErrorsOnTheirLinkUntilTheHoldPasses() throws Exception {
        set("\"leaf1\"[3] PortCounters.SymbolErrorCounter", 50);
        assertEquals(Set.of("fabric_cable_errors " + LEAF1_SPINE0), sweep(store, reader, false));
        FabricVerdict verdict = store.fabrics().get(0).verdicts().get(0);
        assertTrue(verdict.evidence().startsWith("SymbolErrorCounter +50 at leaf1 ("), verdict.evidence());
        assertTrue(verdict.evidence().contains("spine0 ("), verdict.evidence());
        assertEquals(Set.of("fabric_cable_errors " + LEAF1_SPINE0), sweep(store, reader, false),
                "held: no further rise, but within the hold");
        now.addAndGet(new FabricCableErrors().holdMillis());
        assertEquals(Set.of(), sweep(store, reader, false), "cleared once the hold passed without a rise");
        set("\"leaf1\"[3] PortCounters.SymbolErrorCounter", 0);
        assertEquals(Set.of(), sweep(store, reader, false), "a counter cleared is no rise");
    }

    @Test
    @Order(3)
    void waitingRaisesCongestionOnlyAgainstWhatThePortSent() throws Exception {
        // the wait share is ΔPortXmitWait ÷ (ΔPortXmitWait + ΔPortXmitData words): 5,000 ticks beside 10^6 words is
        // 0.5 %, a busy port, not a congested one
        set("\"spine1\"[3] PortCountersExtended.PortXmitData", 1_000_000);
        set("\"spine1\"[3] PortCounters.PortXmitWait", 5_000);
        assertEquals(Set.of(), sweep(store, reader, false), "waits beside as many words sent");
        set("\"spine1\"[3] PortCounters.PortXmitWait", 1_000_000);
        assertEquals(Set.of("fabric_congestion " + FatTreeNetFile.cable("leaf2", 4, "spine1", 3)),
                sweep(store, reader, false));
        assertTrue(store.fabrics().get(0).verdicts().get(0).evidence().startsWith("spine1 ("),
                store.fabrics().get(0).verdicts().get(0).evidence());
        assertEquals(Set.of(), sweep(store, reader, false), "cleared on the first sweep without waits");
    }

    @Test
    @Order(4)
    void anUnlinkedCableIsDownUntilRelinked() throws Exception {
        ibsim.console("Unlink \"leaf1\"[3]", "sim>");
        assertEquals(Set.of("fabric_link_down " + LEAF1_SPINE0), sweep(store, reader, true));
        ibsim.console("ReLink \"leaf1\"[3]", "sim>");
        // a relinked port trains to LinkUp but stays Init, carrying nothing, until the SM makes it Active: still down
        assertEquals(Set.of("fabric_link_down " + LEAF1_SPINE0), sweep(store, reader, true), "relinked, not active");
        ibsim.runOpensmOnce(dir);
        assertEquals(Set.of(), sweep(store, reader, true), "the cable is back");
    }

    @Test
    @Order(5)
    void aNarrowCableIsDegradedAndNoOther() throws Exception {
        Path narrowDir = Files.createDirectories(dir.resolve("narrow"));
        try (Ibsim narrow = new Ibsim(narrowDir, new FatTreeNetFile(3, 2, 2, 1, "h2-1").text())) {
            DiagsFabricReader narrowReader = reader(narrow);
            FabricStore narrowStore = new FabricStore(now::get, FabricStore.DEFAULT_STALE_AFTER,
                    FabricStore.DEFAULT_DROP_AFTER, RuleTable.FABRIC_RULES, () -> HostPorts.NONE);
            Set<String> degraded = Set.of("fabric_link_degraded " + FatTreeNetFile.cable("h2-1", 1, "leaf2", 2));
            assertEquals(degraded, sweep(narrowStore, narrowReader, true));
            assertEquals(degraded, sweep(narrowStore, narrowReader, false), "still, on the counters sweep");
        }
    }

    private static DiagsFabricReader reader(Ibsim subnet) {
        return new DiagsFabricReader(new FabricOptions(null, null, Duration.ofSeconds(30), Duration.ofSeconds(15),
                Duration.ofMinutes(5), subnet.environment()), Clock.systemUTC());
    }

    /** Sets a counter on ibsim's console. */
    private static void set(String counter, long value) throws Exception {
        ibsim.console("PerformanceSet " + counter + "=" + value, "has been set to " + value);
    }

    /**
     * One sweep, 15 s after the last on the store's clock, through the wire as the agent sends it and the ingest
     * applies it; the verdicts then held, as {@code rule "a"[p] - "b"[q]}.
     */
    private static Set<String> sweep(FabricStore into, DiagsFabricReader from, boolean topology) throws Exception {
        FabricSweep sweep = from.sweep("h0-0", topology);
        now.addAndGet(SWEEP_INTERVAL);
        for (Frame.Fabric part : FabricWire.partsWithin(codec, sweep)) {
            into.accept("h0-0", (Frame.Fabric) codec.decode(codec.encode(part)));
        }
        List<FabricVerdict> verdicts = into.fabrics().get(0).verdicts();
        return verdicts.stream().map(v -> v.rule().id() + " " + FatTreeNetFile.cable(v.link().a().description(),
                v.link().a().port(), v.link().b().description(), v.link().b().port()))
                .collect(Collectors.toCollection(TreeSet::new));
    }
}
