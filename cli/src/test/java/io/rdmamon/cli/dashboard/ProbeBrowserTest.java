package io.rdmamon.cli.dashboard;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.microsoft.playwright.Locator;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.Route;
import com.microsoft.playwright.options.WaitForSelectorState;
import io.rdmamon.agent.sim.NodeKind;
import io.rdmamon.agent.sim.Scenario;
import io.rdmamon.agent.sim.SimulatedNode;
import io.vertx.core.Vertx;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BooleanSupplier;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The probe panel in real headless Chromium against a collector whose simulated agents run probes
 * through the simulated perftest (the launcher {@code rdmamon demo} uses): a viewer token is refused
 * and the page asks for an operator token; an operator starts a probe between two RoCE nodes from a
 * port's detail, watches it run, and sees its result against the link rate; the history lists it and
 * a running probe can be cancelled.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@ExtendWith(VertxExtension.class)
class ProbeBrowserTest {
    private static final Path SCREENSHOTS = Paths.get("target", "dashboard-screenshots");
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String NNBSP = "\u202f";
    private static final String CARD_STATE = ".probe-card .probe-state";

    private SimulatedFleet fleet;
    private HeadlessChromium chromium;
    private final List<String> consoleErrors = new CopyOnWriteArrayList<>();
    private List<String> roceNodes;
    private String passedProbeId;

    @BeforeAll
    void start(Vertx vertx, @TempDir Path temp) throws Exception {
        fleet = new SimulatedFleet(vertx, temp.resolve("fabric"), 4, Scenario.HEALTHY);
        roceNodes = fleet.fabric.nodes().stream().filter(n -> n.kind() == NodeKind.ROCE_MLX5).map(SimulatedNode::name).toList();
        assertTrue(roceNodes.size() >= 2, "two RoCE nodes among " + fleet.fabric.nodes());
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
    @Order(1)
    void aViewerTokenIsRefusedAndThePageAsksForAnOperatorTokenSayingWhy() throws Exception {
        Page page = open("/#/probes", SimulatedFleet.VIEWER_TOKEN);
        choose(page, "pv", port(0, "mlx5_0"), port(1, "mlx5_0"));
        page.fill("#pv-duration", "1");
        page.click("#probes-form button[type=submit]");

        page.locator("#operator-dialog").waitFor(new Locator.WaitForOptions().setState(WaitForSelectorState.VISIBLE));
        String reason = page.textContent("#operator-reason");
        assertTrue(reason.contains("needs the operator role") && reason.contains("HTTP 403"), reason);
        page.click("#operator-cancel");
        String status = page.textContent("#probes-form .probe-form-status");
        assertTrue(status.startsWith("Not started") && status.contains("403") && status.contains("operator token"), status);
        assertEquals(0, api("/api/probes").get("probes").size(), "the refused request started nothing");
        assertEquals(null, page.evaluate("sessionStorage.getItem('rdmamon-operator-token')"), "no operator token kept");
        assertEquals(List.of(), errorsBesides("status of 401", "status of 403"));
        page.close();
    }

    @Test
    @Order(2)
    void anOperatorStartsAProbeFromThePortDetailAndSeesItPassAgainstTheLinkRate() throws Exception {
        String source = port(0, "mlx5_0");
        String destination = port(1, "mlx5_0");
        Page page = open("/#/port/" + source, SimulatedFleet.OPERATOR_TOKEN);
        waitFor(page, () -> source.equals(page.inputValue("#pp-source")), "the port pre-filled as the source");
        choose(page, "pp", null, destination);
        page.fill("#pp-duration", "2");
        // no polling of the probe: what the card shows can only come from the push channel's probe events
        page.route(Pattern.compile(".*/api/probes/[^/?]+$"), Route::abort);
        // every state the card shows, in order, as the page renders it
        page.evaluate("""
                window.seenStates = [];
                new MutationObserver(() => {
                  const s = document.querySelector('#probe-panel .probe-card .probe-state')?.textContent;
                  if (s && window.seenStates[window.seenStates.length - 1] !== s) window.seenStates.push(s);
                }).observe(document.getElementById('probe-panel'), {subtree: true, childList: true, characterData: true});
                """);
        page.click("#probe-panel button[type=submit]");
        waitFor(page, () -> "done".equals(text(page, "#probe-panel " + CARD_STATE)), "the probe to be done");

        @SuppressWarnings("unchecked")
        List<String> seen = (List<String>) page.evaluate("window.seenStates");
        assertEquals("done", seen.get(seen.size() - 1), seen.toString());
        assertTrue(seen.contains("running") && seen.indexOf("running") < seen.indexOf("done"), "ran before done: " + seen);

        passedProbeId = page.textContent("#probe-panel .probe-card code");
        JsonNode probe = api("/api/probes/" + passedProbeId);
        assertEquals(source, endpoint(probe.get("source")));
        assertEquals(destination, endpoint(probe.get("destination")));
        assertEquals(2, probe.get("durationSeconds").asInt());
        JsonNode result = probe.get("result");
        assertTrue(result.get("passed").asBoolean(), "the simulated perftest runs at 93-97 % of the link rate: " + probe);
        double gbits = result.get("bandwidthBitsPerSecond").asDouble() / 1e9;
        String bandwidth = page.textContent("#probe-panel .probe-bandwidth");
        assertTrue(bandwidth.endsWith(NNBSP + "Gb/s"), bandwidth);
        assertEquals(gbits, Double.parseDouble(bandwidth.substring(0, bandwidth.indexOf(NNBSP))), gbits * 0.01, bandwidth);
        // one decimal, rounded by the page (JavaScript's toFixed rounds the binary value, Java's format the
        // decimal one: 94.55 can show as 94.5 or 94.6), so the shown share is within half a tenth
        String ratio = page.textContent("#probe-panel .probe-ratio");
        assertTrue(ratio.matches("\\d+\\.\\d" + NNBSP + "%"), ratio);
        assertEquals(result.get("linkRatio").asDouble() * 100, Double.parseDouble(ratio.substring(0, ratio.indexOf(NNBSP))),
                0.05 + 1e-9, ratio);
        String linkRate = String.format(Locale.ROOT, "%.0f%sGb/s link rate", probe.get("linkRateBitsPerSecond").asDouble() / 1e9, NNBSP);
        assertTrue(page.textContent("#probe-panel .probe-result").contains(linkRate), linkRate);
        assertEquals("PASS", page.textContent("#probe-panel .probe-verdict"));
        String width = (String) page.evaluate("document.querySelector('#probe-panel .probe-bar .fill').style.width");
        assertEquals(result.get("linkRatio").asDouble() * 100, Double.parseDouble(width.replace("%", "")), 0.01, width);
        page.screenshot(new Page.ScreenshotOptions().setPath(SCREENSHOTS.resolve("probe-port-panel.png")).setFullPage(true));
        assertEquals(List.of(), errorsBesides("status of 401", "net::ERR_FAILED"));
        page.close();
    }

    @Test
    @Order(3)
    void theHistoryListsProbesNewestFirstAndACancelledOneStopsThere() throws Exception {
        Page page = open("/#/probes", SimulatedFleet.OPERATOR_TOKEN);
        choose(page, "pv", port(0, "mlx5_1"), port(1, "mlx5_1"));
        page.fill("#pv-duration", "30");
        // GID 0 is the link-local RoCE v1 GID: the collector's refusal is shown as it words it
        page.fill("#pv-gid", "0");
        page.click("#probes-form button[type=submit]");
        waitFor(page, () -> page.textContent("#probes-form .probe-form-status").startsWith("Not started"), "the refusal");
        HttpResponse<String> refused = post("/api/probes", "{\"source\":" + endpointJson(port(0, "mlx5_1"))
                + ",\"destination\":" + endpointJson(port(1, "mlx5_1")) + ",\"durationSeconds\":30,\"gidIndex\":0}");
        assertEquals(400, refused.statusCode(), refused.body());
        assertEquals("Not started: " + JSON.readTree(refused.body()).get("error").asText() + " (HTTP 400).",
                page.textContent("#probes-form .probe-form-status"));
        page.fill("#pv-gid", "");
        page.click("#probes-form button[type=submit]");
        waitFor(page, () -> page.url().matches(".*#/probes/[^/]+$"), "the new probe's own URL");
        String cancelledId = page.url().substring(page.url().lastIndexOf('/') + 1);
        waitFor(page, () -> "running".equals(text(page, "#probes-selected " + CARD_STATE)), "the long probe running");
        // the push channel is quiet while a probe runs (the running event says ~0 %): progress comes from polling
        waitFor(page, () -> progress(page) > 0.1, "3 of the 30 s shown as progress");
        page.click("#probes-selected button.danger");
        waitFor(page, () -> "cancelled".equals(text(page, "#probes-selected " + CARD_STATE)), "the probe cancelled");
        assertEquals("cancelled", api("/api/probes/" + cancelledId).get("state").asText());

        List<String> ids = page.locator(".probe-history tbody tr").all().stream().map(r -> r.getAttribute("data-id")).toList();
        assertEquals(List.of(cancelledId, passedProbeId), ids, "newest first");
        Locator passedRow = page.locator(".probe-history tr[data-id='" + passedProbeId + "']");
        assertEquals("pass", passedRow.locator("td").last().textContent());
        passedRow.locator("a").click();
        waitFor(page, () -> page.url().endsWith("#/probes/" + passedProbeId), "the passed probe's URL");
        waitFor(page, () -> "PASS".equals(text(page, "#probes-selected .probe-verdict")), "the passed probe shown");
        page.screenshot(new Page.ScreenshotOptions().setPath(SCREENSHOTS.resolve("probes.png")).setFullPage(true));

        Page deepLink = open("/#/probes/" + cancelledId, SimulatedFleet.VIEWER_TOKEN);
        waitFor(deepLink, () -> "cancelled".equals(text(deepLink, "#probes-selected " + CARD_STATE)), "a deep link to a probe");
        assertEquals(List.of(), errorsBesides("status of 401", "status of 400"));
        deepLink.close();
        page.close();
    }

    /** A new tab on {@code path}, answering the token prompt with {@code token}. */
    private Page open(String path, String token) {
        consoleErrors.clear();
        Page page = chromium.newPage(consoleErrors);
        page.navigate(fleet.baseUrl() + path);
        HeadlessChromium.giveToken(page, token);
        waitFor(page, () -> page.textContent("#conn").startsWith("live"), "the live stream");
        return page;
    }

    /** Picks ports in the form with id prefix {@code form} by typing into the filters, as a user would. */
    private void choose(Page page, String form, String source, String destination) {
        if (source != null) {
            pick(page, "#" + form + "-source", source);
        }
        pick(page, "#" + form + "-destination", destination);
    }

    private void pick(Page page, String picker, String key) {
        page.fill(picker + "-filter", key.substring(0, key.indexOf('/')) + " " + key.substring(key.indexOf('/') + 1));
        waitFor(page, () -> page.locator(picker + " option[value='" + key + "']").count() == 1, key + " offered");
        page.selectOption(picker, key);
    }

    private String port(int roceNode, String device) {
        return roceNodes.get(roceNode) + "/" + device + "/1";
    }

    private static double progress(Page page) {
        Locator bar = page.locator("#probes-selected progress");
        return bar.count() == 0 ? 0 : Double.parseDouble(bar.getAttribute("value"));
    }

    private static String endpoint(JsonNode e) {
        return e.get("node").asText() + "/" + e.get("device").asText() + "/" + e.get("port").asInt();
    }

    private static String text(Page page, String selector) {
        Locator locator = page.locator(selector);
        return locator.count() == 0 ? null : locator.first().textContent();
    }

    private static String endpointJson(String key) {
        String[] parts = key.split("/");
        return "{\"node\":\"" + parts[0] + "\",\"device\":\"" + parts[1] + "\",\"port\":" + parts[2] + "}";
    }

    private HttpResponse<String> post(String path, String body) throws Exception {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(fleet.baseUrl() + path))
                .header("Authorization", "Bearer " + SimulatedFleet.OPERATOR_TOKEN).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private JsonNode api(String path) throws Exception {
        HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(fleet.baseUrl() + path))
                .header("Authorization", "Bearer " + SimulatedFleet.VIEWER_TOKEN).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, response.statusCode(), path + ": " + response.body());
        return JSON.readTree(response.body());
    }

    /** Console errors except the logged refusals the test provokes on purpose. */
    private List<String> errorsBesides(String... expected) {
        return consoleErrors.stream().filter(e -> List.of(expected).stream().noneMatch(e::contains)).toList();
    }

    private void waitFor(Page page, BooleanSupplier condition, String what) {
        HeadlessChromium.waitFor(page, condition, what, Duration.ofSeconds(20), consoleErrors);
    }
}
