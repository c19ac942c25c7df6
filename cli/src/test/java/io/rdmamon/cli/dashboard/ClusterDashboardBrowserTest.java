package io.rdmamon.cli.dashboard;

import com.microsoft.playwright.Page;
import io.rdmamon.collector.CollectorConfig;
import io.rdmamon.collector.RawAgent;
import io.rdmamon.collector.cluster.TestReplicas;
import io.rdmamon.protocol.testing.FixtureHosts;
import io.rdmamon.protocol.wire.SampleEncoder;
import io.vertx.core.Vertx;
import io.vertx.core.http.WebSocketClient;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The dashboard of one replica of a two-replica cluster (real clustered Vert.x with Infinispan on loopback) in real
 * headless Chromium: its fleet overview lists the nodes held by the other replica too, as they arrive over the
 * clustered event bus, and keeps them current.
 */
@ExtendWith(VertxExtension.class)
class ClusterDashboardBrowserTest {
    private static final String ROWS = "#grid-canvas .vt-row:not([hidden])";

    @Test
    void theOverviewOfOneReplicaShowsTheNodesAnotherHolds(Vertx client, @TempDir Path temp) throws Exception {
        // the replicas are several clustered Vert.x instances (TestReplicas): the extension's one plain instance is the client
        List<String> consoleErrors = new CopyOnWriteArrayList<>();
        try (TestReplicas replicas = TestReplicas.start(2, CollectorConfig.defaults());
             HeadlessChromium chromium = new HeadlessChromium(temp.resolve("chromium-profile"))) {
            WebSocketClient sockets = client.createWebSocketClient();
            RawAgent far = new RawAgent(sockets, replicas.replica(0).port(), null);
            RawAgent near = new RawAgent(sockets, replicas.replica(1).port(), null);
            SampleEncoder farEncoder = new SampleEncoder("far-node", "test", 1000, List.of(), "far");
            SampleEncoder nearEncoder = new SampleEncoder("near-node", "test", 1000, List.of(), "near");
            far.sample(farEncoder, FixtureHosts.golden("far-node", System.currentTimeMillis(), 1), 1);
            near.sample(nearEncoder, FixtureHosts.golden("near-node", System.currentTimeMillis(), 1), 1);

            Page page = chromium.newPage(consoleErrors);
            page.navigate("http://127.0.0.1:" + replicas.replica(1).port() + "/");
            HeadlessChromium.waitFor(page, () -> names(page).containsAll(List.of("far-node", "near-node")),
                    "replica 1's overview lists far-node (held by replica 0) and near-node", Duration.ofSeconds(30),
                    consoleErrors);
            assertEquals(1, page.locator(ROWS + " .c-node a").allTextContents().stream().distinct()
                    .filter("far-node"::equals).count(), "listed once");
            far.sample(farEncoder, FixtureHosts.golden("far-node", System.currentTimeMillis(), 2), 2);
            assertTrue(replicas.replica(1).store().node("far-node").isEmpty(),
                    "replica 1 does not hold far-node: its row came from replica 0");
            assertEquals(List.of(), consoleErrors);
        }
    }

    private static List<String> names(Page page) {
        return page.locator(ROWS + " .c-node a").allTextContents().stream().distinct().toList();
    }
}
