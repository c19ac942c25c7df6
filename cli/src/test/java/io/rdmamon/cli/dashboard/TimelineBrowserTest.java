package io.rdmamon.cli.dashboard;

import com.microsoft.playwright.Page;
import io.rdmamon.collector.Collector;
import io.rdmamon.collector.CollectorConfig;
import io.rdmamon.collector.RawAgent;
import io.rdmamon.protocol.model.HostSample;
import io.rdmamon.protocol.model.IbDevice;
import io.rdmamon.protocol.model.IbPort;
import io.rdmamon.protocol.model.TransceiverModule;
import io.rdmamon.protocol.wire.SampleEncoder;
import io.vertx.core.Vertx;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BooleanSupplier;

import static io.rdmamon.protocol.testing.Waits.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The Timeline view (#/timeline) in real headless Chromium, live: an agent stream shows a flap, then a module swap,
 * then goes silent (agent_stale raised) and comes back (cleared); the view lists the four newest first as they
 * happen, a reload lists them the same from GET /api/events, and the port page shows its own slice.
 */
@ExtendWith(VertxExtension.class)
class TimelineBrowserTest {
    private static final Duration LIMIT = Duration.ofSeconds(60);
    private static final String NODE = "gpu-07";
    /** The agent's announced interval: the node is stale 3 of them after its last sample. */
    private static final long INTERVAL_MILLIS = 3000;
    private final List<String> consoleErrors = new CopyOnWriteArrayList<>();
    private final SampleEncoder encoder = new SampleEncoder(NODE, "test", INTERVAL_MILLIS, List.of(), "run-1");
    private Collector.Running collector;
    private HeadlessChromium chromium;
    private Page page;
    private RawAgent agent;
    private long seq;

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
    void theTimelineShowsAFlapAModuleSwapAndADiagnosisRaisedAndClearedInOrder(Vertx vertx, @TempDir Path temp)
            throws Exception {
        collector = await(Collector.start(vertx, CollectorConfig.defaults().withListen("127.0.0.1:0")));
        chromium = new HeadlessChromium(temp.resolve("chromium-profile"));
        page = chromium.newPage(consoleErrors);
        page.navigate("http://127.0.0.1:" + collector.port() + "/#/timeline");
        waitFor(() -> page.textContent("#conn").startsWith("live"), "the live feed");

        // the node appears only now: a slow start of Chromium cannot make it stale before the flap
        agent = new RawAgent(vertx.createWebSocketClient(), collector.port(), null);
        // back to back, so that no slow step of a loaded machine comes between them
        send(4, "MT2310FT00123"); // the baseline
        send(5, "MT2310FT00123"); // a carrier down: the flap
        send(5, "MT2402FT00999"); // another module in the cage
        waitFor(() -> kinds().equals(List.of("link_flap", "module_swapped")), "the flap, then the module swap above it");
        // silence (shorter than the 30 s after which the collector closes a silent stream): the collector's sweep
        // finds the node stale after 3 intervals
        waitFor(() -> kinds().equals(List.of("link_flap", "module_swapped", "diagnosis_raised agent_stale")),
                "agent_stale raised");
        send(5, "MT2402FT00999");
        List<String> expected = List.of("link_flap", "module_swapped", "diagnosis_raised agent_stale",
                "diagnosis_cleared agent_stale");
        waitFor(() -> kinds().equals(expected), "agent_stale cleared");

        page.reload();
        waitFor(() -> kinds().equals(expected), "the same list from GET /api/events after a reload");
        page.selectOption("#tl-kind", "module_swapped");
        waitFor(() -> page.locator("#tl-list li").count() == 1
                && "module_swapped".equals(page.getAttribute("#tl-list li", "data-kind"))
                && page.url().endsWith("#/timeline?kind=module_swapped"), "the kind filter, kept in the URL");

        page.click("#tl-list li[data-kind=module_swapped] a");
        waitFor(() -> page.url().contains("#/port/gpu-07/mlx5_0/1"), "the port page the entry links to");
        waitFor(() -> kinds("#port-changes").equals(expected), "the port's slice: the port's changes and the node's");
        assertEquals(List.of(), consoleErrors);
    }

    /**
     * The entries of {@code list} from the flap on, oldest first (the list shows them newest first): the flap, the
     * swap, agent_stale raised and cleared. Other rules may fire too: they do not count.
     */
    private List<String> kinds(String list) {
        @SuppressWarnings("unchecked")
        List<String> all = new ArrayList<>((List<String>) page.locator(list + " li").evaluateAll("items => items.map(i =>"
                + " i.dataset.kind + (i.dataset.kind.startsWith('diagnosis') ? ' ' + i.querySelector('.change-text')"
                + ".textContent.split(' ')[0] : ''))"));
        Collections.reverse(all);
        List<String> ours = all.stream().filter(k -> List.of("link_flap", "module_swapped", "diagnosis_raised agent_stale",
                "diagnosis_cleared agent_stale").contains(k)).toList();
        int flap = ours.indexOf("link_flap");
        return flap < 0 ? List.of() : ours.subList(flap, ours.size());
    }

    private List<String> kinds() {
        return kinds("#tl-list");
    }

    private void send(long carrierDowns, String serial) throws Exception {
        seq++;
        IbPort port = IbPort.builder().port(1).stateId(4).state("ACTIVE").physStateId(5).physState("LinkUp")
                .linkLayer("Ethernet").netdev("eth0").netdevCounters(Map.of("carrier_down_count", carrierDowns))
                .module(new TransceiverModule("CMIS", 0x18, "OSFP", "NVIDIA", "MMA4Z00-NS", "A1", serial, "230310",
                        40.0, 3.3, List.of(), null, List.of()))
                .build();
        HostSample sample = new HostSample(NODE, System.currentTimeMillis(), List.of(new IbDevice("mlx5_0", 1, "CA",
                "0x1", "0x1", "28.39.1002", "MT4129", null, List.of(port))), List.of(), null);
        agent.sample(encoder, sample, seq);
    }

    /** On a timeout, says what the list showed and what the collector's log held. */
    private void waitFor(BooleanSupplier condition, String what) throws Exception {
        try {
            HeadlessChromium.waitFor(page, condition, what, LIMIT, consoleErrors);
        } catch (AssertionError e) {
            String log = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
                    + collector.port() + "/api/events")).build(), HttpResponse.BodyHandlers.ofString()).body();
            throw new AssertionError(e.getMessage() + "; the list: " + kinds("#tl-list") + " ("
                    + page.textContent("#tl-status") + "); GET /api/events: " + log, e);
        }
    }
}
