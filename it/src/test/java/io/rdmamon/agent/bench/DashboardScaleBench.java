package io.rdmamon.agent.bench;

import com.microsoft.playwright.Browser;
import com.microsoft.playwright.BrowserContext;
import com.microsoft.playwright.BrowserType;
import com.microsoft.playwright.CDPSession;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.Playwright;
import com.google.gson.JsonObject;
import io.rdmamon.protocol.model.HostSample;
import io.vertx.core.Vertx;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The dashboard's overview at fleet size in the system's headless Chromium (docs/performance.md, "Dashboard at fleet
 * size"), fed by the ingest bench's load: a real collector ({@link BenchCollector}) and {@code --nodes} synthetic
 * 8-port agents ({@link CollectorIngestBench.LoadVerticle}, 1 Hz), then one page on the overview. The page records
 * <ul>
 *   <li>first useful paint: the first port row shown, and the row count reaching every port (milliseconds since the
 *       navigation started, the page's own clock);</li>
 *   <li>main-thread time per live update, from the dashboard's User Timing measures: {@code live-fleet} (parse and
 *       model update of each fleet event) and {@code overview-update} (filter, sort and the rows in view, in the next
 *       animation frame), {@code fleet-map-draw} (the fleet map, in the same frame); and long tasks (over 50 ms);</li>
 *   <li>the JS heap after a forced GC (DevTools protocol {@code HeapProfiler.collectGarbage}, then
 *       {@code Runtime.getHeapUsage}) every {@code --heap-every} seconds for {@code --minutes}.</li>
 * </ul>
 * With {@code --first-paints N}, first N page loads, each in a fresh browser context ({@link #firstPaints}).
 * Usage: {@code java -cp $CP io.rdmamon.agent.bench.DashboardScaleBench [--nodes 2000] [--minutes 5] [--heap-every 60]
 * [--first-paints N]}.
 */
public final class DashboardScaleBench {
    private static final String RECORD = """
            (() => {
              const bench = window.scaleBench = {measures: {}, ended: {}, longTasks: [], firstRow: null, allPorts: null};
              new PerformanceObserver((list) => list.getEntries().forEach((e) => {
                (bench.measures[e.name] = bench.measures[e.name] || []).push(e.duration);
                if (!(e.name in bench.ended)) bench.ended[e.name] = e.startTime + e.duration;
              })).observe({type: 'measure'});
              new PerformanceObserver((list) => list.getEntries().forEach((e) => bench.longTasks.push(e.duration)))
                .observe({type: 'longtask'});
              const watch = () => {
                if (bench.firstRow === null && document.querySelector('.vt-row:not([hidden])')) bench.firstRow = performance.now();
                const count = document.getElementById('row-count');
                const m = count && /^(\\d+) of (\\d+) ports/.exec(count.textContent);
                if (bench.allPorts === null && m && +m[2] >= %d) bench.allPorts = performance.now();
                if (bench.firstRow === null || bench.allPorts === null) requestAnimationFrame(watch);
              };
              requestAnimationFrame(watch);
            })()
            """;

    private DashboardScaleBench() {
    }

    public static void main(String[] args) throws Exception {
        int nodes = AgentVsNodeExporterBench.intOption(args, "--nodes", 2000);
        int minutes = AgentVsNodeExporterBench.intOption(args, "--minutes", 5);
        int heapEvery = AgentVsNodeExporterBench.intOption(args, "--heap-every", 60);
        int firstPaints = AgentVsNodeExporterBench.intOption(args, "--first-paints", 0);
        HostSample template = SyntheticHosts.eightPortHost();
        int ports = nodes * template.devices().stream().mapToInt(d -> d.ports().size()).sum();
        Path log = Files.createTempFile("rdmamon-bench-collector", ".log");
        Vertx vertx = Vertx.vertx();
        try (BenchChild collector = BenchChild.java("collector", List.of(), BenchCollector.class, List.of(), log);
             Playwright playwright = Playwright.create(new Playwright.CreateOptions()
                     .setEnv(Map.of("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1")))) {
            int port = Integer.parseInt(BenchControl.fields(collector.awaitAnswer()).get("port"));
            CollectorIngestBench.FrameFeed feed = new CollectorIngestBench.FrameFeed(template);
            CollectorIngestBench.LoadCounters counters = new CollectorIngestBench.LoadCounters();
            for (int k = 0; k < 2; k++) {
                vertx.deployVerticle(new CollectorIngestBench.LoadVerticle(port, "bench-node-%04d", nodes, k, 2, feed,
                        counters, 100)).toCompletionStage().toCompletableFuture().get();
            }
            while (!BenchControl.fields(collector.ask("stats")).get("nodes").equals(Integer.toString(nodes))) {
                Thread.sleep(500);
            }
            System.out.printf("%d nodes (%d ports) streaming to the collector at 1 Hz%n", nodes, ports);
            Browser browser = playwright.chromium().launch(new BrowserType.LaunchOptions()
                    .setExecutablePath(Paths.get(System.getenv().getOrDefault("RDMAMON_CHROMIUM", "/usr/bin/chromium")))
                    .setHeadless(true).setArgs(List.of("--no-sandbox", "--disable-gpu", "--no-first-run")));
            if (firstPaints > 0) {
                firstPaints(browser, port, ports, firstPaints);
            }
            Page page = browser.newPage(new Browser.NewPageOptions().setViewportSize(1500, 1000));
            page.addInitScript(String.format(Locale.ROOT, RECORD, ports));
            page.navigate("http://127.0.0.1:" + port + "/");
            page.waitForFunction("() => window.scaleBench && window.scaleBench.allPorts !== null", null,
                    new Page.WaitForFunctionOptions().setTimeout(120_000));
            System.out.printf("first port row shown %.0f ms, every port counted %.0f ms after navigation%n",
                    num(page.evaluate("window.scaleBench.firstRow")), num(page.evaluate("window.scaleBench.allPorts")));
            // where the time to the first row went: the page loaded, the stream's hello, its first fleet event
            System.out.printf("on the way (ms after navigation): DOMContentLoaded %.0f, hello %s, first fleet event"
                            + " parsed and applied %s (it took %s)%n",
                    num(page.evaluate("performance.getEntriesByType('navigation')[0].domContentLoadedEventEnd")),
                    page.evaluate("Math.round(window.scaleBench.ended['live-hello'])"),
                    page.evaluate("Math.round(window.scaleBench.ended['live-fleet'])"),
                    page.evaluate("Math.round(window.scaleBench.measures['live-fleet'][0])"));
            page.evaluate("() => { window.scaleBench.measures = {}; window.scaleBench.longTasks = []; }");
            CDPSession devtools = page.context().newCDPSession(page);
            List<String> heaps = new ArrayList<>();
            long end = System.nanoTime() + minutes * 60_000_000_000L;
            for (int second = heapEvery; System.nanoTime() < end; second += heapEvery) {
                Thread.sleep(Math.min(heapEvery * 1000L, Math.max(0, (end - System.nanoTime()) / 1_000_000)));
                devtools.send("HeapProfiler.collectGarbage");
                JsonObject heap = devtools.send("Runtime.getHeapUsage");
                heaps.add(String.format(Locale.ROOT, "%.1f", heap.get("usedSize").getAsDouble() / 1048576.0));
            }
            for (String name : List.of("live-fleet", "overview-update", "fleet-map-draw")) {
                System.out.println(name + " (ms): " + summary(page.evaluate(
                        "window.scaleBench.measures['" + name + "'] || []")));
            }
            System.out.println("long tasks over 50 ms (ms): " + summary(page.evaluate("window.scaleBench.longTasks")));
            System.out.println("JS heap after GC every " + heapEvery + " s (MiB): " + String.join(", ", heaps));
            System.out.println("collector: " + collector.ask("stats") + "; samples acknowledged: " + counters.acks.get());
            counters.stopping = true;
            browser.close();
        } finally {
            vertx.close();
        }
    }

    /**
     * {@code loads} first paints, each in a fresh browser context (nothing cached), one after another: the first row
     * shown and DOMContentLoaded, milliseconds after the navigation started. The first load after Chromium starts
     * also pays for the browser's own first navigation, so one load alone says little.
     */
    private static void firstPaints(Browser browser, int port, int ports, int loads) {
        List<Double> firstRows = new ArrayList<>();
        List<Double> loaded = new ArrayList<>();
        for (int load = 0; load < loads; load++) {
            BrowserContext context = browser.newContext(new Browser.NewContextOptions().setViewportSize(1500, 1000));
            Page page = context.newPage();
            page.addInitScript(String.format(Locale.ROOT, RECORD, ports));
            page.navigate("http://127.0.0.1:" + port + "/");
            page.waitForFunction("() => window.scaleBench && window.scaleBench.firstRow !== null", null,
                    new Page.WaitForFunctionOptions().setTimeout(120_000));
            firstRows.add(num(page.evaluate("window.scaleBench.firstRow")));
            loaded.add(num(page.evaluate("performance.getEntriesByType('navigation')[0].domContentLoadedEventEnd")));
            context.close();
        }
        System.out.printf("first paints, fresh contexts: first row (ms) %s %s; DOMContentLoaded (ms) %s%n",
                summary(firstRows), rounded(firstRows), rounded(loaded));
    }

    private static List<Long> rounded(List<Double> values) {
        return values.stream().map(Math::round).toList();
    }

    private static double num(Object value) {
        return ((Number) value).doubleValue();
    }

    /** count, p50, p99 and max of a list of durations. */
    private static String summary(Object values) {
        double[] sorted = ((List<?>) values).stream().mapToDouble(v -> ((Number) v).doubleValue()).sorted().toArray();
        if (sorted.length == 0) {
            return "none";
        }
        return String.format(Locale.ROOT, "n %d, p50 %.1f, p99 %.1f, max %.1f", sorted.length,
                sorted[sorted.length / 2], sorted[Math.min(sorted.length - 1, (int) (sorted.length * 0.99))],
                sorted[sorted.length - 1]);
    }
}
