package io.rdmamon.cli.daemon;

import io.rdmamon.agent.sim.FabricSimulator;
import io.rdmamon.agent.sim.Scenario;
import io.rdmamon.agent.sim.SimulationSpec;
import io.rdmamon.protocol.probe.PerftestSpec;
import io.rdmamon.protocol.probe.ProbePhase;
import io.rdmamon.protocol.probe.ProbeRole;
import io.rdmamon.protocol.wire.Frame;
import io.rdmamon.protocol.wire.FrameCodec;
import io.rdmamon.protocol.wire.FrameException;
import io.rdmamon.protocol.wire.WireFormat;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.ServerWebSocket;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

import static io.rdmamon.protocol.testing.Waits.await;
import static io.rdmamon.protocol.testing.Waits.waitFor;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The demo's agents, as {@link DemoFleet} wires them, take the pingmesh's latency probes: their hellos announce both
 * consents, and a latency probe across leaf-01's uplink in tor-uplink-loss comes back DONE with round trips that
 * show the retransmissions. A bare WebSocket endpoint plays the collector's part of the wire.
 */
@ExtendWith(VertxExtension.class)
class DemoFleetPingmeshTest {
    private static final Duration LIMIT = Duration.ofSeconds(60);
    private final FrameCodec codec = new FrameCodec();
    private final Map<String, ServerWebSocket> sockets = new ConcurrentHashMap<>();
    private final Map<String, Frame.Hello> hellos = new ConcurrentHashMap<>();
    private final List<Frame.ProbeReport> reports = new CopyOnWriteArrayList<>();
    private Vertx vertx;
    private FabricSimulator simulator;
    private DemoFleet fleet;

    @BeforeEach
    void setUp(Vertx vertx) {
        this.vertx = vertx;
    }

    @AfterEach
    void stop() throws Exception {
        if (fleet != null) {
            await(fleet.stop(), LIMIT);
        }
        if (simulator != null) {
            simulator.deleteTrees();
        }
    }

    @Test
    void demoAgentsRunLatencyProbesThatShowTheLossyUplink(@TempDir Path trees) throws Exception {
        HttpServer collector = await(vertx.createHttpServer().webSocketHandler(ws -> {
            if (!ws.path().equals(WireFormat.STREAM_PATH)) {
                ws.close((short) 1008, "not the stream path");
                return;
            }
            ws.binaryMessageHandler(message -> {
                Frame frame;
                try {
                    frame = codec.decode(message.getBytes());
                } catch (FrameException e) {
                    throw new AssertionError("an agent sent a bad frame", e);
                }
                if (frame instanceof Frame.Hello hello) {
                    hellos.put(hello.node(), hello);
                    sockets.put(hello.node(), ws);
                } else if (frame instanceof Frame.ProbeReport report) {
                    reports.add(report);
                }
            });
        }).listen(0, "127.0.0.1"), LIMIT);
        simulator = FabricSimulator.create(trees, new SimulationSpec(8, Scenario.TOR_UPLINK_LOSS, 5, 3));
        // samples go unacknowledged here: no ack deadline within the test
        fleet = await(DemoFleet.start(vertx, simulator, "http://127.0.0.1:" + collector.actualPort(),
                Duration.ofSeconds(1), "", options -> options.withAckTimeout(Duration.ofHours(1))), LIMIT);
        waitFor(() -> hellos.size() == 8, "every agent's hello", LIMIT);
        for (Frame.Hello hello : hellos.values()) {
            assertEquals(List.of(Frame.Hello.CAPABILITY_PROBES, Frame.Hello.CAPABILITY_PINGMESH), hello.capabilities(),
                    hello.node());
        }

        // gpu-node-001 (leaf-01) serves, gpu-node-003 (leaf-02) measures: across leaf-01's uplink; -u 4: 65.5 µs
        PerftestSpec spec = PerftestSpec.latency("mlx5_0", 1, 3, 64, 2_000, 10, 4, 104);
        send("gpu-node-001", new Frame.ProbeStart("mesh-1", ProbeRole.SERVER, spec, null, 0, 30_000));
        Frame.ProbeReport listening = awaitReport(ProbeRole.SERVER, ProbePhase.LISTENING);
        send("gpu-node-003", new Frame.ProbeStart("mesh-1", ProbeRole.CLIENT, spec, "10.1.0.1",
                listening.tcpPort(), 30_000));
        Frame.ProbeReport done = awaitReport(ProbeRole.CLIENT, ProbePhase.DONE);
        List<Long> roundTrips = done.latency().rttNanos();
        assertEquals(1_999, roundTrips.size());
        long retransmitted = roundTrips.stream().filter(rtt -> rtt > 4.096 * 16 * 1_000).count();
        assertTrue(retransmitted > 140 && retransmitted < 260, "about 10 % of 1999: " + retransmitted);
        assertTrue(roundTrips.stream().allMatch(rtt -> rtt > 7_500), "a cross-leaf path: " + roundTrips.subList(0, 5));
        awaitReport(ProbeRole.SERVER, ProbePhase.DONE);
    }

    private void send(String node, Frame frame) {
        sockets.get(node).writeBinaryMessage(Buffer.buffer(codec.encode(frame)));
    }

    private Frame.ProbeReport awaitReport(ProbeRole role, ProbePhase phase) throws InterruptedException {
        waitFor(() -> reports.stream().anyMatch(r -> r.role() == role && (r.phase() == phase || r.phase().terminal())),
                role + " " + phase, LIMIT);
        Frame.ProbeReport report = reports.stream()
                .filter(r -> r.role() == role && (r.phase() == phase || r.phase().terminal())).findFirst().orElseThrow();
        assertEquals(phase, report.phase(), report.toString());
        return report;
    }
}
