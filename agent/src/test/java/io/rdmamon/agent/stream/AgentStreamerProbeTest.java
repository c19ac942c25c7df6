package io.rdmamon.agent.stream;

import io.rdmamon.agent.daemon.AgentDaemon;
import io.rdmamon.agent.daemon.AgentDaemonOptions;
import io.rdmamon.agent.host.Fixtures;
import io.rdmamon.agent.host.HostReader;
import io.rdmamon.agent.probe.ProbeRunner;
import io.rdmamon.agent.probe.ProbeSettings;
import io.rdmamon.agent.probe.ProcessPerftestLauncher;
import io.rdmamon.agent.probe.standin.StandInBinary;
import io.rdmamon.protocol.probe.PerftestSpec;
import io.rdmamon.protocol.probe.ProbePhase;
import io.rdmamon.protocol.probe.ProbeRole;
import io.rdmamon.protocol.text.WireLimits;
import io.rdmamon.protocol.text.WireText;
import io.rdmamon.protocol.wire.Frame;
import io.rdmamon.protocol.wire.FrameCodec;
import io.rdmamon.protocol.wire.FrameException;
import io.rdmamon.protocol.wire.WireFormat;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.ServerWebSocket;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;

import static io.rdmamon.protocol.testing.Waits.await;
import static io.rdmamon.protocol.testing.Waits.poll;
import static io.rdmamon.protocol.testing.Waits.waitFor;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Probe frames over the real streamer: a bare WebSocket endpoint plays the collector's part of the
 * wire (the collector's orchestration is tested with it in its own module), so the agent's handling
 * of start, report and disconnect is seen frame by frame.
 */
@ExtendWith(VertxExtension.class)
class AgentStreamerProbeTest {
    private static final Path ROOT = Fixtures.root("mlx5-roce");
    private final FrameCodec codec = new FrameCodec();
    private final List<Frame> received = new CopyOnWriteArrayList<>();
    private final AtomicReference<ServerWebSocket> agentSocket = new AtomicReference<>();
    @TempDir
    Path dir;
    private Vertx vertx;
    private HttpServer collector;

    @BeforeEach
    void start(Vertx vertx) throws Exception {
        this.vertx = vertx;
        collector = await(vertx.createHttpServer().webSocketHandler(ws -> {
            if (!ws.path().equals(WireFormat.STREAM_PATH)) {
                ws.close((short) 1008, "not the stream path");
                return;
            }
            agentSocket.set(ws);
            ws.binaryMessageHandler(message -> {
                try {
                    received.add(codec.decode(message.getBytes()));
                } catch (FrameException e) {
                    throw new AssertionError("the agent sent a bad frame", e);
                }
            });
        }).listen(0, "127.0.0.1"));
    }

    private void deploy(ProbeSettings probes) throws Exception {
        HostReader reader = HostReader.forRoot(ROOT);
        Duration interval = Duration.ofMillis(200);
        await(vertx.deployVerticle(new AgentDaemon(AgentDaemonOptions.of("node-a", interval, () -> reader.read("node-a"))
                .withStreamer(AgentStreamerOptions.of("http://127.0.0.1:" + collector.actualPort(), "node-a")
                        .withInterval(interval).withBackoff(Duration.ofMillis(50), Duration.ofMillis(100))
                        .withProbes(probes)))));
        waitFor(() -> received.stream().anyMatch(f -> f instanceof Frame.Hello), "the agent's hello");
    }

    private void send(Frame frame) {
        agentSocket.get().writeBinaryMessage(Buffer.buffer(codec.encode(frame)));
    }

    private List<Frame.ProbeReport> reports(String probeId) {
        return received.stream().filter(f -> f instanceof Frame.ProbeReport r && r.probeId().equals(probeId))
                .map(Frame.ProbeReport.class::cast).toList();
    }

    private static Frame.ProbeStart server(String probeId) {
        return new Frame.ProbeStart(probeId, ProbeRole.SERVER, new PerftestSpec("mlx5_0", 1, 3, 65_536, 5, 1, false),
                null, 0, 60_000);
    }

    @Test
    void aDisabledAgentAnswersOnTheWire() throws Exception {
        deploy(ProbeSettings.disabled());
        send(server("wire-off"));
        waitFor(() -> !reports("wire-off").isEmpty(), "the refusal");
        Frame.ProbeReport report = reports("wire-off").get(0);
        assertEquals(ProbePhase.FAILED, report.phase());
        assertEquals(ProbeRunner.DISABLED, report.error());
    }

    @Test
    void listeningIsReportedAndADroppedConnectionKillsTheProbeSilently() throws Exception {
        String marker = "301." + System.nanoTime() % 1_000_000_000L;
        Path binary = StandInBinary.write(dir, Map.of("STANDIN_GRANDCHILD_SLEEP", marker));
        deploy(ProbeSettings.enabled(new ProcessPerftestLauncher(binary.toString()), ROOT, Duration.ofSeconds(60)));
        send(server("wire-1"));
        waitFor(() -> reports("wire-1").stream().anyMatch(r -> r.phase() == ProbePhase.LISTENING), "LISTENING on the wire");
        int port = reports("wire-1").get(0).tcpPort();
        assertTrue(port > 0);

        int helloCount = (int) received.stream().filter(f -> f instanceof Frame.Hello).count();
        agentSocket.get().close();
        waitFor(() -> !grandchildAlive(marker), "the probe's process group killed after the disconnect");
        waitFor(() -> received.stream().filter(f -> f instanceof Frame.Hello).count() > helloCount, "the reconnect");
        startAnotherProbeOnThePortOfWire1();
        assertEquals(List.of(ProbePhase.LISTENING), reports("wire-1").stream().map(Frame.ProbeReport::phase).toList(),
                "the abandoned probe reports nothing more");
    }

    @Test
    void aClientsEscapedEndlessOutputReachesTheWirePrintableAndBounded() throws Exception {
        Path binary = StandInBinary.write(dir, Map.of("STANDIN_ESCAPED_LINE_CHARS", "1000000"));
        deploy(ProbeSettings.enabled(new ProcessPerftestLauncher(binary.toString()), ROOT, Duration.ofSeconds(60)));
        send(new Frame.ProbeStart("wire-noisy", ProbeRole.CLIENT, new PerftestSpec("mlx5_0", 1, 3, 65_536, 5, 1,
                false), "127.0.0.1", closedPort(), 60_000));

        waitFor(() -> reports("wire-noisy").stream().anyMatch(r -> r.phase() == ProbePhase.FAILED), "the failure");
        Frame.ProbeReport failed = reports("wire-noisy").get(reports("wire-noisy").size() - 1);
        List<String> texts = new java.util.ArrayList<>(failed.output());
        if (failed.error() != null) {
            texts.add(failed.error());
        }
        assertTrue(texts.stream().anyMatch(t -> t.startsWith("\\u001b[31mxxx")), texts.toString());
        for (String text : texts) {
            assertEquals(-1, WireText.firstInvalid(text, true), text);
            assertTrue(text.length() <= WireLimits.MAX_TEXT_CHARS, text.length() + " characters");
        }
    }

    /** A loopback port nothing listens on: one bound and released. */
    private static int closedPort() throws java.io.IOException {
        try (java.net.ServerSocket socket = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    /**
     * Starts servers on wire-1's port until one listens. The runner refuses a start while another probe holds the port,
     * so the one that listens came after wire-1's run had ended, and a report of wire-1 would have been written on this
     * ordered connection before its LISTENING.
     */
    private void startAnotherProbeOnThePortOfWire1() throws Exception {
        int[] attempts = {0};
        poll("a later probe listening on wire-1's port", () -> {
            String id = "wire-after-" + ++attempts[0];
            send(server(id));
            waitFor(() -> !reports(id).isEmpty(), "the answer to " + id);
            return reports(id).get(0).phase();
        }, phase -> phase == ProbePhase.LISTENING, Duration.ofSeconds(10), Duration.ofMillis(50));
    }

    private static boolean grandchildAlive(String marker) {
        return ProcessHandle.allProcesses().anyMatch(p -> p.info().arguments()
                .map(args -> Arrays.asList(args).contains(marker)).orElse(false));
    }
}
