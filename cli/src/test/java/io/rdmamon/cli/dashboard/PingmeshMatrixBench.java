package io.rdmamon.cli.dashboard;

import com.microsoft.playwright.Page;
import com.microsoft.playwright.options.BoundingBox;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Frame time of the dashboard's pingmesh matrix at fleet size, in the system's headless Chromium (docs/performance.md,
 * "Pingmesh matrix"): {@link PingmeshTestDouble} serves the dashboard and a new {@link CannedPingmesh} round on every
 * poll (the view polls once a round: every second here), the pointer rests on the matrix so that the tooltip follows
 * every update, and the page records
 * <ul>
 *   <li>the time between consecutive requestAnimationFrame callbacks (the frame time the user sees),</li>
 *   <li>the view's own User Timing measures per update: on the page's main thread {@code pingmesh-apply} (the
 *       worker's answer taken: texts, verdicts) and {@code pingmesh-render} (putImageData and labels); in its worker
 *       {@code pingmesh-worker-fetch} (request and JSON parse) and {@code pingmesh-worker-compose} (order, median,
 *       the picture's pixels),</li>
 *   <li>long tasks (main-thread work over 50 ms).</li>
 * </ul>
 * Usage: {@code java -cp $CP io.rdmamon.cli.dashboard.PingmeshMatrixBench [--nodes 2000] [--ports 8]
 * [--group-nodes 4] [--own-peers 6] [--other-peers 4] [--seconds 20] [--rounds 5]}; it leaves a screenshot in
 * {@code target/dashboard-screenshots/pingmesh-bench.png}.
 */
public final class PingmeshMatrixBench {
    private static final String RECORD = """
            (() => {
              const bench = window.pingmeshBench = {frames: [], measures: [], longTasks: []};
              new PerformanceObserver((list) => list.getEntries().forEach((e) => bench.measures.push([e.name, e.duration])))
                .observe({type: 'measure'});
              new PerformanceObserver((list) => list.getEntries().forEach((e) => bench.longTasks.push(e.duration)))
                .observe({type: 'longtask'});
              let last = 0;
              const frame = (t) => {
                if (last) bench.frames.push(t - last);
                last = t;
                if (!bench.stopped) requestAnimationFrame(frame);
              };
              requestAnimationFrame(frame);
            })()
            """;

    private PingmeshMatrixBench() {
    }

    public static void main(String[] args) throws Exception {
        Map<String, Integer> options = options(args);
        CannedPingmesh canned = new CannedPingmesh(options.get("nodes"), options.get("ports"), options.get("group-nodes"),
                options.get("own-peers"), options.get("other-peers"));
        List<byte[]> rounds = new ArrayList<>();
        for (int round = 0; round < options.get("rounds"); round++) {
            rounds.add(canned.answer(round));
        }
        System.out.printf(Locale.ROOT, "fleet: %d ports, %d groups, %d cells; answer %.1f MB of JSON%n",
                canned.ports(), canned.groups(), canned.cells(), rounds.get(0).length / 1e6);
        Path profile = Files.createTempDirectory("pingmesh-bench-chromium");
        List<String> errors = new CopyOnWriteArrayList<>();
        try (PingmeshTestDouble server = new PingmeshTestDouble(rounds);
             HeadlessChromium chromium = new HeadlessChromium(profile)) {
            Page page = chromium.newPage(errors);
            page.navigate(server.baseUrl() + "/#/pingmesh");
            HeadlessChromium.waitFor(page, () -> (boolean) page.evaluate(
                    "performance.getEntriesByName('pingmesh-render').length > 0"), "the first matrix", Duration.ofSeconds(60), errors);
            BoundingBox box = page.locator("#pm-canvas").boundingBox();
            page.mouse().move(box.x + box.width * 0.6, box.y + box.height * 0.4);
            System.out.println("browser: " + page.evaluate("navigator.userAgent") + ", canvas " + Math.round(box.width)
                    + " CSS px square, device pixel ratio " + page.evaluate("devicePixelRatio"));
            page.evaluate(RECORD);
            page.waitForTimeout(options.get("seconds") * 1000.0);
            page.evaluate("window.pingmeshBench.stopped = true");
            report("frame time (requestAnimationFrame deltas)", numbers(page.evaluate("window.pingmeshBench.frames")));
            @SuppressWarnings("unchecked")
            List<List<Object>> measures = (List<List<Object>>) page.evaluate("window.pingmeshBench.measures");
            for (String name : List.of("pingmesh-apply", "pingmesh-render", "pingmesh-worker-fetch",
                    "pingmesh-worker-compose")) {
                report(name + " per update", measures.stream().filter(m -> m.get(0).equals(name))
                        .mapToDouble(m -> ((Number) m.get(1)).doubleValue()).toArray());
            }
            double[] longTasks = numbers(page.evaluate("window.pingmeshBench.longTasks"));
            System.out.printf(Locale.ROOT, "long tasks (> 50 ms): %d, %.0f ms in all%n", longTasks.length, Arrays.stream(longTasks).sum());
            System.out.println("tooltip: " + page.textContent("#pm-tooltip").replace('\u202f', ' '));
            System.out.println("console errors (the push channel is 404 in the test double): " + errors.size());
            Path screenshot = Path.of("target", "dashboard-screenshots", "pingmesh-bench.png");
            Files.createDirectories(screenshot.getParent());
            page.screenshot(new Page.ScreenshotOptions().setPath(screenshot));
            System.out.println("screenshot: " + screenshot.toAbsolutePath());
        }
    }

    private static double[] numbers(Object list) {
        return ((List<?>) list).stream().mapToDouble(v -> ((Number) v).doubleValue()).toArray();
    }

    private static void report(String what, double[] values) {
        if (values.length == 0) {
            System.out.println(what + ": none");
            return;
        }
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        long over50 = Arrays.stream(sorted).filter(v -> v > 50).count();
        System.out.printf(Locale.ROOT, "%s: n %d, p50 %.1f ms, p90 %.1f ms, p99 %.1f ms, max %.1f ms, over 50 ms %d%n",
                what, sorted.length, quantile(sorted, 0.5), quantile(sorted, 0.9), quantile(sorted, 0.99),
                sorted[sorted.length - 1], over50);
    }

    private static double quantile(double[] sorted, double q) {
        return sorted[Math.max(0, (int) Math.ceil(q * sorted.length) - 1)];
    }

    private static Map<String, Integer> options(String[] args) {
        Map<String, Integer> options = new LinkedHashMap<>(Map.of("nodes", 2000, "ports", 8, "group-nodes", 4,
                "own-peers", 6, "other-peers", 4, "seconds", 20, "rounds", 5));
        for (int i = 0; i < args.length; i += 2) {
            String name = args[i].replaceFirst("^--", "");
            if (!options.containsKey(name) || i + 1 >= args.length) {
                throw new IllegalArgumentException("unknown option or missing value: " + args[i] + "; options: " + options.keySet());
            }
            options.put(name, Integer.parseInt(args[i + 1]));
        }
        return options;
    }
}
