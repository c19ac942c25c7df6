package io.rdmamon.agent.fabric;

import io.rdmamon.protocol.fabric.FabricNode;
import io.rdmamon.protocol.fabric.FabricSweep;
import io.rdmamon.protocol.testing.FabricSweeps;
import io.rdmamon.protocol.testing.Waits;
import io.vertx.core.Vertx;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The --fabric role's cadence: topology first, counters after, rediscovery when a link went down, failures once. */
@ExtendWith(VertxExtension.class)
class FabricSweeperTest {
    private static final FabricOptions FAST = new FabricOptions(null, null, Duration.ofSeconds(5),
            Duration.ofMillis(20), Duration.ofMinutes(5), Map.of());

    /** A sweep whose leaf port 2 has {@code linkDowned} in its LinkDownedCounter. */
    private static FabricSweep sweep(boolean topology, long linkDowned) {
        FabricSweep base = FabricSweeps.leafAndTwoHosts("n1");
        FabricNode leaf = base.nodes().get(0);
        Map<String, Long> counters = new java.util.LinkedHashMap<>(leaf.port(2).orElseThrow().counters());
        counters.put("LinkDownedCounter", linkDowned);
        List<io.rdmamon.protocol.fabric.FabricPort> ports = new ArrayList<>(leaf.ports());
        ports.set(1, leaf.ports().get(1).withCounters(leaf.ports().get(1).counterSets(), counters));
        List<FabricNode> nodes = new ArrayList<>(base.nodes());
        nodes.set(0, new FabricNode(leaf.guid(), leaf.type(), leaf.description(), ports));
        return new FabricSweep(base.subnetPrefix(), base.smLid(), base.smGuid(), "n1", 0, 1, topology, true, List.of(),
                nodes);
    }

    @Test
    void topologyFirstThenCountersAndAgainAfterALinkWentDown(Vertx vertx) throws Exception {
        List<Boolean> asked = Collections.synchronizedList(new ArrayList<>());
        AtomicInteger calls = new AtomicInteger();
        List<FabricSweep> received = new CopyOnWriteArrayList<>();
        FabricSweeper sweeper = new FabricSweeper("n1", FAST, (node, rediscover) -> {
            asked.add(rediscover);
            // the link flaps between the 3rd and 4th sweep
            return sweep(rediscover, calls.incrementAndGet() >= 4 ? 1 : 0);
        }, received::add);
        Waits.await(vertx.deployVerticle(sweeper));
        Waits.waitFor(() -> asked.size() >= 6, "six sweeps");
        assertEquals(List.of(true, false, false, false, true, false), List.copyOf(asked).subList(0, 6));
        assertTrue(received.size() >= 5);
        assertEquals(0, sweeper.stats().failed());
    }

    @Test
    void aNodeThatStaysSilentCostsOneRediscoveryNotOneASweep(Vertx vertx) throws Exception {
        List<Boolean> asked = Collections.synchronizedList(new ArrayList<>());
        FabricSweep good = sweep(true, 0);
        FabricSweeper sweeper = new FabricSweeper("n1", FAST, (node, rediscover) -> {
            asked.add(rediscover);
            return new FabricSweep(good.subnetPrefix(), good.smLid(), null, "n1", 0, 1, rediscover, false,
                    List.of("node 0x0000000000100002 \"h2 mlx5_0\": no port answered PMA queries"), good.nodes());
        }, sweep -> { });
        Waits.await(vertx.deployVerticle(sweeper));
        Waits.waitFor(() -> asked.size() >= 4, "four sweeps");
        // a copy (synchronizedList.toArray holds its lock): the sweeper goes on adding while the view is compared
        assertEquals(List.of(true, true, false, false), List.copyOf(asked).subList(0, 4));
    }

    @Test
    void aSubnetThatCannotBeReadIsRetriedAtTheTopologyInterval(Vertx vertx) throws Exception {
        AtomicInteger calls = new AtomicInteger();
        FabricSweeper sweeper = new FabricSweeper("n1", FAST, (node, rediscover) -> {
            calls.incrementAndGet();
            throw new IOException("ibnetdiscover: exit 255: can't open UMAD port");
        }, sweep -> { });
        Waits.await(vertx.deployVerticle(sweeper));
        Waits.waitFor(() -> sweeper.stats().failed() == 1, "the first failure");
        // twenty ticks of a timer of the counter interval later: still the one attempt, the next waits for the
        // topology interval
        AtomicInteger ticks = new AtomicInteger();
        vertx.setPeriodic(FAST.counterInterval().toMillis(), id -> ticks.incrementAndGet());
        Waits.waitFor(() -> ticks.get() >= 20, "twenty counter intervals");
        assertEquals(1, calls.get());
    }
}
