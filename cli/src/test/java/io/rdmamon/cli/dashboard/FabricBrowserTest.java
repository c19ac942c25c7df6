package io.rdmamon.cli.dashboard;

import com.microsoft.playwright.Page;
import io.rdmamon.collector.Collector;
import io.rdmamon.collector.CollectorConfig;
import io.rdmamon.collector.RawAgent;
import io.rdmamon.protocol.fabric.FabricNode;
import io.rdmamon.protocol.fabric.FabricPort;
import io.rdmamon.protocol.fabric.FabricSweep;
import io.rdmamon.protocol.model.HostSample;
import io.rdmamon.protocol.model.IbDevice;
import io.rdmamon.protocol.testing.Samples;
import io.rdmamon.protocol.wire.Frame;
import io.rdmamon.protocol.wire.FabricWire;
import io.rdmamon.protocol.wire.SampleEncoder;
import io.vertx.core.Vertx;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BooleanSupplier;
import java.util.function.UnaryOperator;

import static io.rdmamon.collector.fabric.SyntheticFabrics.fatTree;
import static io.rdmamon.collector.fabric.SyntheticFabrics.host;
import static io.rdmamon.collector.fabric.SyntheticFabrics.leaf;
import static io.rdmamon.collector.fabric.SyntheticFabrics.withPort;
import static io.rdmamon.protocol.testing.Waits.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The Fabric view (#/fabric) in real headless Chromium: empty until a sweeper sends a fabric, then a two-level fat
 * tree (2 spines, 2 leaves, 3 hosts each) drawn in three rows, the 1X cable among 4X ones amber (fabric_link_degraded),
 * and a click on that cable shows both its ends' counters. A node description with markup stays text. A host's port
 * page names the switch port the fabric found it cabled to.
 */
@ExtendWith(VertxExtension.class)
class FabricBrowserTest {
    private static final Duration LIMIT = Duration.ofSeconds(60);
    private static final String SWEEPER = "sweeper-01";
    private static final String HOSTILE = "<img src=x onerror=alert(1)> mlx5_0";
    private final List<String> consoleErrors = new CopyOnWriteArrayList<>();
    private Collector.Running collector;
    private HeadlessChromium chromium;
    private Page page;

    @AfterEach
    void stop() throws Exception {
        if (chromium != null) {
            chromium.close();
        }
        if (collector != null) {
            await(collector.close());
        }
    }

    @Test
    void theFabricIsDrawnByTierWithTheDegradedCableColouredAndItsTwoEndsOnAClick(Vertx vertx, @TempDir Path temp)
            throws Exception {
        collector = await(Collector.start(vertx, CollectorConfig.defaults().withListen("127.0.0.1:0")));
        chromium = new HeadlessChromium(temp.resolve("chromium-profile"));
        page = chromium.newPage(consoleErrors);
        page.navigate("http://127.0.0.1:" + collector.port() + "/#/fabric");
        waitFor(() -> page.textContent("#fab-status").contains("no fabric swept yet"), "the empty state");

        RawAgent agent = new RawAgent(vertx.createWebSocketClient(), collector.port(), null);
        agent.sample(new SampleEncoder(SWEEPER, "test", 15_000, List.of(), "run-1"),
                new HostSample(SWEEPER, System.currentTimeMillis(), List.of(), List.of(), null), 1);
        for (Frame.Fabric part : FabricWire.parts(fabric(), 4)) {
            agent.send(part);
        }
        String degraded = host(1, 2) + "/1";
        page.reload();
        waitFor(() -> page.locator(".fab-link").count() == 10, "the fabric's 10 links");
        assertEquals(List.of("2 spines", "2 leaves", "6 hosts"), page.locator("#fab-rows li").allTextContents());
        assertEquals(List.of(2, 2, 6), List.of(tier(2), tier(1), tier(0)));
        waitFor(() -> page.locator(".fab-link.warn").count() == 1, "one amber link");
        assertEquals(1, page.locator(".fab-link.warn[data-end='" + degraded + "']").count());
        assertEquals(0, page.locator(".fab-link.bad").count());
        assertEquals(0, page.locator("#fabric-view img").count(), "a node's description is text, not markup");
        assertEquals(1, page.locator(".fab-node title").allTextContents().stream().filter(t -> t.startsWith(HOSTILE))
                .count());

        page.click(".fab-link.warn");
        waitFor(() -> page.url().endsWith("link=" + degraded.replace("/", "%2F"))
                && page.locator("#fab-link table.fab-end").count() == 2, "both ends' counters");
        assertEquals(List.of(degraded, leaf(1) + "/3"), page.locator("#fab-link table.fab-end")
                .evaluateAll("tables => tables.map(t => t.dataset.end)"));
        assertEquals("0", page.textContent("#fab-link table[data-end='" + degraded
                + "'] tr[data-counter=SymbolErrorCounter] td"));

        // the degraded host's own agent: its port page names the switch port the sweep found it cabled to
        RawAgent host = new RawAgent(vertx.createWebSocketClient(), collector.port(), null);
        IbDevice hca = new IbDevice("mlx5_0", IbDevice.NODE_TYPE_CA, "CA", sysfsGuid(host(1, 2)), null, null, null,
                null, List.of(Samples.unreadablePort(1)));
        host.sample(new SampleEncoder("gpu-12", "test", 15_000, List.of(), "run-1"),
                new HostSample("gpu-12", System.currentTimeMillis(), List.of(hca), List.of()), 1);
        page.navigate("http://127.0.0.1:" + collector.port() + "/#/port/gpu-12/mlx5_0/1");
        waitFor(() -> page.locator("#port-head dl.facts div").allTextContents().contains(
                "Cabled toleaf1 port 3 (" + leaf(1) + ")"), "the port page naming leaf1's port 3");
        assertEquals(List.of(), consoleErrors);
    }

    /** A fabric GUID ({@code 0x00000000010003ea}) as sysfs spells a node_guid ({@code 0000:0000:0100:03ea}). */
    private static String sysfsGuid(String fabricGuid) {
        String hex = fabricGuid.substring(2);
        return String.join(":", hex.substring(0, 4), hex.substring(4, 8), hex.substring(8, 12), hex.substring(12));
    }

    /** Nodes of tier {@code tier} drawn. */
    private int tier(int tier) {
        return page.locator(".fab-node[data-tier='" + tier + "']").count();
    }

    /** The fat tree with leaf 1's cable to its third host trained at 1X, and that host named with markup. */
    private static FabricSweep fabric() {
        FabricSweep tree = fatTree(2, 2, 3, System.currentTimeMillis());
        FabricSweep narrow = withPort(withPort(tree, host(1, 2), 1, oneX()), leaf(1), 3, oneX());
        List<FabricNode> nodes = new ArrayList<>();
        for (FabricNode node : narrow.nodes()) {
            nodes.add(node.guid().equals(host(0, 0)) ? new FabricNode(node.guid(), node.type(), HOSTILE, node.ports())
                    : node);
        }
        return narrow.withNodes(nodes);
    }

    private static UnaryOperator<FabricPort> oneX() {
        return p -> new FabricPort(p.number(), p.lid(), p.stateId(), p.state(), p.physStateId(), p.physState(), 1,
                p.speed(), p.widthsSupported(), p.speedsSupported(), p.widthsEnabled(), p.speedsEnabled(),
                p.remoteGuid(), p.remotePort(), p.counterSets(), p.counters());
    }

    private void waitFor(BooleanSupplier condition, String what) {
        HeadlessChromium.waitFor(page, condition, what, LIMIT, consoleErrors);
    }
}
