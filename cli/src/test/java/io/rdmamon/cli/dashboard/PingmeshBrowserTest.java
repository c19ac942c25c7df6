package io.rdmamon.cli.dashboard;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.Response;
import com.microsoft.playwright.Route;
import com.microsoft.playwright.options.BoundingBox;
import io.rdmamon.agent.sim.Scenario;
import io.rdmamon.collector.Collector;
import io.rdmamon.collector.CollectorConfig;
import io.vertx.core.Vertx;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BooleanSupplier;

import static io.rdmamon.protocol.testing.Waits.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The pingmesh view (#/pingmesh) in real headless Chromium against a collector whose simulated agents take part in the
 * pingmesh through the demo's own wiring ({@link SimulatedFleet}): the matrix draws the pairs the collector reports,
 * hovering one shows the pair's names and then its history and counters, clicking it starts a bandwidth probe between
 * the two ports (the collector lists it), and a group band narrows the view to its group. A collector without
 * pingmesh agents says why there is no matrix.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@ExtendWith(VertxExtension.class)
class PingmeshBrowserTest {
    private static final Path SCREENSHOTS = Paths.get("target", "dashboard-screenshots");
    private static final ObjectMapper JSON = new ObjectMapper();
    /** A probing round is 10 s by default (docs/pingmesh.md): the first results take a round or two. */
    private static final Duration FIRST_RESULTS = Duration.ofSeconds(90);
    /**
     * Where a probed pair is drawn, computed with the view's own module from the collector's answer: the CSS
     * coordinates of its cell, those of the unprobed pair of its source with itself, both pixels, the pair's names.
     */
    private static final String LOCATE = """
            async () => {
              const m = await import('/js/pingmesh-matrix.js');
              const response = await fetch('/api/pingmesh', {headers: {Authorization: 'Bearer ' + sessionStorage.getItem('rdmamon-token')}});
              const answer = await response.json();
              const canvas = document.getElementById('pm-canvas');
              // a pair with answers (a pair whose probes were all skipped or failed has no colour yet)
              const cell = answer.cells.find((c) => c[2] > 0 && (c[3] > 0 || c[4] != null));
              if (!cell || !canvas.style.width) return null;
              const {order, position} = m.portOrder(answer.ports);
              const g = m.geometry(order.length, parseFloat(canvas.style.width), devicePixelRatio);
              const centre = (p) => (g.origin + g.axis.start[p] + g.axis.width / 2) / g.ratio;
              const pixel = (x, y) => Array.from(canvas.getContext('2d')
                .getImageData(Math.floor(x * g.ratio), Math.floor(y * g.ratio), 1, 1).data);
              const name = (p) => p.node + ' ' + p.device + '/' + p.port;
              const [src, dst] = cell;
              const x = centre(position[dst]);
              const y = centre(position[src]);
              const self = centre(position[src]);
              return {x, y, self, src: name(answer.ports[src]), dst: name(answer.ports[dst]), dstGroup: answer.ports[dst].group,
                cellPixel: pixel(x, y), selfPixel: pixel(self, self), band: g.band / 2 / g.ratio};
            }
            """;

    private SimulatedFleet fleet;
    private HeadlessChromium chromium;
    private final List<String> consoleErrors = new CopyOnWriteArrayList<>();

    @BeforeAll
    void start(Vertx vertx, @TempDir Path temp) throws Exception {
        fleet = new SimulatedFleet(vertx, temp.resolve("fabric"), 4, Scenario.HEALTHY);
        chromium = new HeadlessChromium(temp.resolve("chromium-profile"));
        Files.createDirectories(SCREENSHOTS);
    }

    @AfterAll
    void stop() throws Exception {
        if (chromium != null) {
            chromium.close();
        }
        if (fleet != null) {
            fleet.close();
        }
    }

    @Test
    @SuppressWarnings("unchecked")
    void theMatrixDrawsProbedPairsAHoverNamesThePairAndAClickStartsAProbeBetweenThem() throws Exception {
        Page page = chromium.newPage(consoleErrors);
        List<String> dialogs = new CopyOnWriteArrayList<>();
        page.onDialog(dialog -> {
            dialogs.add(dialog.message());
            dialog.accept();
        });
        // the probe list and the matrix the page asks for first are answered only after the token is given, as on a
        // busy machine: their 401s speak of no token, so the page does not ask for the token again; it sends the
        // probe list's request again with the token, and the matrix's next poll carries it
        Route[] heldProbes = new Route[1];
        Route[] heldMatrix = new Route[1];
        List<Response> probeLists = holdFirst(page, "/api/probes", heldProbes);
        List<Response> matrices = holdFirst(page, "/api/pingmesh", heldMatrix);
        page.navigate(fleet.baseUrl() + "/#/pingmesh");
        // the operator's token serves as the viewer's too, and lets the click start a probe
        HeadlessChromium.giveToken(page, SimulatedFleet.OPERATOR_TOKEN);
        waitFor(page, () -> heldProbes[0] != null && heldMatrix[0] != null && page.isHidden("#token-dialog"),
                "the token taken with the first requests held");
        heldProbes[0].resume();
        heldMatrix[0].resume();
        waitFor(page, () -> probeLists.size() >= 2 && matrices.size() >= 2, "both requests refused, then made again");
        for (List<Response> first : List.of(probeLists, matrices)) {
            assertEquals(Arrays.asList(null, "Bearer " + SimulatedFleet.OPERATOR_TOKEN), first.subList(0, 2).stream()
                    .map(r -> r.request().headers().get("authorization")).toList());
            assertEquals(List.of(401, 200), first.subList(0, 2).stream().map(Response::status).toList());
        }
        assertTrue(page.isHidden("#token-dialog"), "a refusal of a request made before the token asks for no token");
        Map<String, Object>[] found = new Map[1];
        // the cell is drawn once the view has polled after the collector's first results
        HeadlessChromium.waitFor(page, () -> {
            found[0] = (Map<String, Object>) page.evaluate(LOCATE);
            return found[0] != null && ((List<Number>) found[0].get("cellPixel")).get(3).intValue() == 255;
        }, "a probed pair drawn opaque in the matrix", FIRST_RESULTS, consoleErrors);
        Map<String, Object> cell = found[0];
        List<Number> selfPixel = (List<Number>) cell.get("selfPixel");
        assertTrue(selfPixel.get(3).intValue() < 255, "a port with itself is never probed: translucent grey " + selfPixel);
        assertNotEquals(cell.get("cellPixel"), selfPixel, "a probed pair is coloured, not unprobed grey");
        assertTrue(page.textContent("#pm-status").matches("\\d+ ports · .* [1-9]\\d* pairs probed .*"), page.textContent("#pm-status"));

        BoundingBox box = page.locator("#pm-canvas").boundingBox();
        double x = box.x + ((Number) cell.get("x")).doubleValue();
        double y = box.y + ((Number) cell.get("y")).doubleValue();
        page.mouse().move(x, y);
        String title = cell.get("src") + " → " + cell.get("dst");
        waitFor(page, () -> page.isVisible("#pm-tooltip") && title.equals(page.textContent("#pm-tooltip .pm-tip-title")),
                "the tooltip naming " + title);
        assertTrue(page.textContent("#pm-tooltip .pm-tip-summary").startsWith("p50 "), page.textContent("#pm-tooltip"));
        // after the dwell: the pair's history and both ends' counters from /api/pingmesh/pair
        waitFor(page, () -> page.locator("#pm-tooltip .pm-spark").count() == 1
                && page.locator("#pm-tooltip .pm-counters").count() == 2, "the pair's history and counters");
        assertEquals(List.of(cell.get("src"), cell.get("dst")), page.locator("#pm-tooltip .pm-counters th").allTextContents());
        page.screenshot(new Page.ScreenshotOptions().setPath(SCREENSHOTS.resolve("pingmesh.png")));

        page.mouse().click(x, y);
        waitFor(page, () -> page.textContent("#pm-probe-status").startsWith("Started probe "), "the probe started");
        assertEquals(List.of("Start a bandwidth probe (ib_write_bw) from " + cell.get("src") + " to " + cell.get("dst") + "?"), dialogs);
        String status = page.textContent("#pm-probe-status");
        String id = status.substring("Started probe ".length(), status.length() - 1);
        JsonNode probe = api("/api/probes/" + id);
        assertEquals(cell.get("src"), endpoint(probe.get("source")));
        assertEquals(cell.get("dst"), endpoint(probe.get("destination")));
        boolean listed = false;
        for (JsonNode p : api("/api/probes").get("probes")) {
            listed |= p.get("id").asText().equals(id);
        }
        assertTrue(listed, "probe " + id + " in /api/probes");
        // the card follows it as the Probes view's does, linking to its own view
        waitFor(page, () -> page.locator("#pm-probe .probe-card a[href='#/probes/" + id + "']").count() == 1, "the probe's card");

        // the band above the cell's column (the destination's group) narrows the matrix to that group
        page.mouse().click(x, box.y + ((Number) cell.get("band")).doubleValue());
        String group = (String) cell.get("dstGroup");
        waitFor(page, () -> page.url().endsWith("#/pingmesh?group=" + URLEncoder.encode(group, StandardCharsets.UTF_8)),
                "the group's URL");
        int groupPorts = api("/api/pingmesh?group=" + URLEncoder.encode(group, StandardCharsets.UTF_8)).get("ports").size();
        waitFor(page, () -> page.textContent("#pm-status").startsWith(groupPorts + " ports · "), "the group's " + groupPorts + " ports");
        assertEquals(group, page.inputValue("#pm-group"));
        assertTrue(page.isHidden("#token-dialog"), "the token was asked for once");
        assertEquals(List.of(), consoleErrors.stream().filter(e -> !e.contains("status of 401")).toList(),
                "console errors besides the first request's 401 that asks for the token");
        page.close();
    }

    @Test
    void withoutPingmeshAgentsThePageSaysWhyThereIsNoMatrix(@TempDir Path temp) throws Exception {
        // its own Vert.x: a second lone collector on the fleet's would share its node directory (FleetCluster.lone)
        Vertx vertx = Vertx.vertx();
        try {
            Collector.Running alone = await(Collector.start(vertx, CollectorConfig.defaults().withListen("127.0.0.1:0")));
            List<String> errors = new CopyOnWriteArrayList<>();
            Page page = chromium.newPage(errors);
            page.navigate("http://127.0.0.1:" + alone.port() + "/#/pingmesh");
            HeadlessChromium.waitFor(page, () -> page.isVisible("#pm-notice"), "the notice", Duration.ofSeconds(20), errors);
            assertTrue(page.textContent("#pm-notice").contains("--allow-pingmesh"), page.textContent("#pm-notice"));
            assertTrue(page.isHidden("#pm-canvas"), "no matrix");
            page.close();
        } finally {
            await(vertx.close());
        }
    }

    /**
     * Holds the page's first request to {@code path} (its route, in {@code held}) until the test resumes it, lets the
     * others through, and lists the answers to them all in the order they come.
     */
    private static List<Response> holdFirst(Page page, String path, Route[] held) {
        page.route("**" + path, route -> {
            if (held[0] == null) {
                held[0] = route;
            } else {
                route.resume();
            }
        });
        List<Response> answers = new CopyOnWriteArrayList<>();
        page.onResponse(r -> {
            if (r.url().endsWith(path)) {
                answers.add(r);
            }
        });
        return answers;
    }

    private static String endpoint(JsonNode e) {
        return e.get("node").asText() + " " + e.get("device").asText() + "/" + e.get("port").asInt();
    }

    private JsonNode api(String path) throws Exception {
        HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(fleet.baseUrl() + path))
                .header("Authorization", "Bearer " + SimulatedFleet.VIEWER_TOKEN).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, response.statusCode(), path + ": " + response.body());
        return JSON.readTree(response.body());
    }

    private void waitFor(Page page, BooleanSupplier condition, String what) {
        HeadlessChromium.waitFor(page, condition, what, Duration.ofSeconds(20), consoleErrors);
    }
}
