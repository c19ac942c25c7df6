package io.rdmamon.cli.dashboard;

import com.microsoft.playwright.Page;
import io.rdmamon.collector.Collector;
import io.rdmamon.collector.CollectorConfig;
import io.rdmamon.protocol.model.HostSample;
import io.rdmamon.protocol.model.IbDevice;
import io.rdmamon.protocol.model.IbPort;
import io.rdmamon.protocol.model.TransceiverModule;
import io.rdmamon.protocol.wire.Frame;
import io.rdmamon.protocol.wire.FrameCodec;
import io.rdmamon.protocol.wire.SampleEncoder;
import io.rdmamon.protocol.wire.WireFormat;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.WebSocket;
import io.vertx.core.http.WebSocketConnectOptions;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
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
    private final List<String> consoleErrors = new CopyOnWriteArrayList<>();
    private final FrameCodec codec = new FrameCodec();
    private final LinkedBlockingQueue<Frame> acks = new LinkedBlockingQueue<>();
    private final SampleEncoder encoder = new SampleEncoder(NODE, "test", 1000, List.of(), "run-1");
    private Collector.Running collector;
    private HeadlessChromium chromium;
    private Page page;
    private WebSocket agent;
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
        agent = await(vertx.createWebSocketClient().connect(new WebSocketConnectOptions().setHost("127.0.0.1")
                .setPort(collector.port()).setURI(WireFormat.STREAM_PATH)));
        agent.binaryMessageHandler(b -> {
            try {
                acks.add(codec.decode(b.getBytes()));
            } catch (Exception e) {
                throw new AssertionError(e);
            }
        });
        send(4, "MT2310FT00123"); // the baseline
        chromium = new HeadlessChromium(temp.resolve("chromium-profile"));
        page = chromium.newPage(consoleErrors);
        page.navigate("http://127.0.0.1:" + collector.port() + "/#/timeline");
        waitFor(() -> page.textContent("#conn").startsWith("live"), "the live feed");

        send(5, "MT2310FT00123");
        waitFor(() -> kinds().equals(List.of("link_flap")), "the flap, live");
        send(5, "MT2402FT00999");
        waitFor(() -> kinds().equals(List.of("module_swapped", "link_flap")), "the module swap on top");
        // silence: the collector's sweep finds the node stale after 3 intervals
        waitFor(() -> kinds().equals(List.of("diagnosis_raised agent_stale", "module_swapped", "link_flap")),
                "agent_stale raised");
        send(5, "MT2402FT00999");
        List<String> expected = List.of("diagnosis_cleared agent_stale", "diagnosis_raised agent_stale", "module_swapped",
                "link_flap");
        waitFor(() -> kinds().equals(expected), "agent_stale cleared");

        page.reload();
        waitFor(() -> kinds().equals(expected), "the same list from GET /api/events after a reload");
        page.selectOption("#tl-kind", "module_swapped");
        waitFor(() -> page.locator("#tl-list li").count() == 1 && kinds().equals(List.of("module_swapped"))
                && page.url().endsWith("#/timeline?kind=module_swapped"), "the kind filter, kept in the URL");

        page.click("#tl-list li[data-kind=module_swapped] a");
        waitFor(() -> page.url().contains("#/port/gpu-07/mlx5_0/1"), "the port page the entry links to");
        waitFor(() -> kinds("#port-changes").equals(expected), "the port's slice: the port's changes and the node's");
        assertEquals(List.of(), consoleErrors);
    }

    /** This test's entries in {@code list}, top to bottom: its flap, its swap, and agent_stale (other rules may fire too). */
    private List<String> kinds(String list) {
        @SuppressWarnings("unchecked")
        List<String> all = (List<String>) page.locator(list + " li").evaluateAll("items => items.map(i =>"
                + " i.dataset.kind + (i.dataset.kind.startsWith('diagnosis') ? ' ' + i.querySelector('.change-text')"
                + ".textContent.split(' ')[0] : ''))");
        return all.stream().filter(k -> List.of("link_flap", "module_swapped", "diagnosis_raised agent_stale",
                "diagnosis_cleared agent_stale").contains(k)).toList();
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
        for (Frame frame : encoder.encode(sample, seq)) {
            await(agent.writeBinaryMessage(Buffer.buffer(codec.encode(frame))));
        }
        assertEquals(new Frame.Ack(seq), acks.poll(10, TimeUnit.SECONDS));
    }

    private void waitFor(BooleanSupplier condition, String what) {
        HeadlessChromium.waitFor(page, condition, what, LIMIT, consoleErrors);
    }
}
