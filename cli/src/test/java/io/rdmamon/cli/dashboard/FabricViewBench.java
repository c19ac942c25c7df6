package io.rdmamon.cli.dashboard;

import com.microsoft.playwright.Page;
import io.rdmamon.collector.Collector;
import io.rdmamon.collector.CollectorConfig;
import io.rdmamon.collector.RawAgent;
import io.rdmamon.collector.fabric.SyntheticFabrics;
import io.rdmamon.protocol.fabric.FabricSweep;
import io.rdmamon.protocol.model.HostSample;
import io.rdmamon.protocol.wire.FabricWire;
import io.rdmamon.protocol.wire.Frame;
import io.rdmamon.protocol.wire.SampleEncoder;
import io.vertx.core.Vertx;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CopyOnWriteArrayList;

import static io.rdmamon.protocol.testing.Waits.await;

/**
 * The Fabric view at fabric size, in the system's headless Chromium (docs/performance.md, "Fabric view"): a collector
 * is sent one sweep of a two-level fat tree over an agent stream, then the page opens #/fabric {@code loads} times and
 * reports the view's User Timing measure {@code fabric-render} (building the SVG of every node and link) and when the
 * map was drawn after the navigation began (fetching and parsing GET /api/fabric included), then the time from a click
 * on a link to both ends' counters. Usage: {@code java -cp $CP io.rdmamon.cli.dashboard.FabricViewBench [leaves 90]
 * [spines 10] [hosts-per-leaf 22] [loads 5]}: 1,980 hosts and 100 switches by default.
 */
public final class FabricViewBench {
    private static final Duration LIMIT = Duration.ofSeconds(120);

    private FabricViewBench() {
    }

    public static void main(String[] args) throws Exception {
        int leaves = args.length > 0 ? Integer.parseInt(args[0]) : 90;
        int spines = args.length > 1 ? Integer.parseInt(args[1]) : 10;
        int hostsPerLeaf = args.length > 2 ? Integer.parseInt(args[2]) : 22;
        int loads = args.length > 3 ? Integer.parseInt(args[3]) : 5;
        FabricSweep sweep = SyntheticFabrics.fatTree(leaves, spines, hostsPerLeaf, System.currentTimeMillis());
        int links = leaves * (hostsPerLeaf + spines);
        Vertx vertx = Vertx.vertx();
        List<String> errors = new CopyOnWriteArrayList<>();
        Path profile = Files.createTempDirectory("fabric-bench-chromium");
        try {
            Collector.Running collector = await(Collector.start(vertx,
                    CollectorConfig.defaults().withListen("127.0.0.1:0")), LIMIT);
            RawAgent agent = new RawAgent(vertx.createWebSocketClient(), collector.port(), null);
            agent.sample(new SampleEncoder("sweeper", "bench", 15_000, List.of(), "run-1"),
                    new HostSample("sweeper", System.currentTimeMillis(), List.of(), List.of(), null), 1);
            for (Frame.Fabric part : FabricWire.parts(sweep, 64)) {
                agent.send(part);
            }
            System.out.printf(Locale.ROOT, "fabric: %d hosts, %d switches, %d links%n", leaves * hostsPerLeaf,
                    leaves + spines, links);
            try (HeadlessChromium chromium = new HeadlessChromium(profile)) {
                Page page = chromium.newPage(errors);
                String url = "http://127.0.0.1:" + collector.port() + "/#/fabric";
                double[] render = new double[loads];
                double[] drawn = new double[loads];
                for (int i = 0; i < loads; i++) {
                    page.navigate("about:blank");
                    page.navigate(url);
                    HeadlessChromium.waitFor(page, () -> page.locator(".fab-link").count() == links
                            && (boolean) page.evaluate("performance.getEntriesByName('fabric-render').length > 0"),
                            "the fabric drawn", LIMIT, errors);
                    render[i] = ((Number) page.evaluate("performance.getEntriesByName('fabric-render')[0].duration"))
                            .doubleValue();
                    drawn[i] = ((Number) page.evaluate("(() => { const m = performance.getEntriesByName("
                            + "'fabric-render')[0]; return m.startTime + m.duration; })()")).doubleValue();
                }
                report("fabric-render (SVG built)", render);
                report("map drawn after navigation start", drawn);
                long started = System.nanoTime();
                page.locator(".fab-link").first().dispatchEvent("click");
                HeadlessChromium.waitFor(page, () -> page.locator("#fab-link table.fab-end").count() == 2,
                        "both ends", LIMIT, errors);
                System.out.printf(Locale.ROOT, "click to both ends' counters: %.0f ms (GET /api/fabric/link and"
                        + " its tables)%n", (System.nanoTime() - started) / 1e6);
                System.out.println("console errors: " + errors);
            }
            await(collector.close(), LIMIT);
        } finally {
            await(vertx.close(), LIMIT);
        }
    }

    private static void report(String what, double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        System.out.printf(Locale.ROOT, "%s: n %d, min %.0f ms, median %.0f ms, max %.0f ms%n", what, sorted.length,
                sorted[0], sorted[sorted.length / 2], sorted[sorted.length - 1]);
    }
}
