package io.rdmamon.collector.probe;

import io.rdmamon.collector.RawAgent;
import io.rdmamon.protocol.probe.LatencyResult;
import io.rdmamon.protocol.probe.PerftestResult;
import io.rdmamon.protocol.probe.ProbePhase;
import io.rdmamon.protocol.probe.ProbeRole;
import io.rdmamon.protocol.testing.FixtureHosts;
import io.rdmamon.protocol.wire.Frame;
import io.rdmamon.protocol.wire.SampleEncoder;
import io.vertx.core.Future;
import io.vertx.core.http.WebSocketClient;

import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;

/**
 * An agent as the collector sees it: a real WebSocket client speaking the real codec. It announces a
 * host ({@link FixtureHosts#golden}: mlx5_0 port 1 RoCE with RoCE v2 GID 3 = 192.168.1.2 and a RoCE v1 GID 0,
 * mlx5_0 port 2 InfiniBand, erdma_0 port 1), then the test scripts its probe reports.
 */
final class FakeAgent {
    private final RawAgent stream;
    private final SampleEncoder encoder;
    final String node;

    FakeAgent(WebSocketClient client, int port, String token, String node) throws Exception {
        this(client, port, token, node, List.of(Frame.Hello.CAPABILITY_PROBES));
    }

    /** An agent whose hello announces {@code capabilities} (an empty list: started without --allow-probes). */
    FakeAgent(WebSocketClient client, int port, String token, String node, List<String> capabilities) throws Exception {
        this.node = node;
        stream = new RawAgent(client, port, token);
        encoder = new SampleEncoder(node, "test", 60_000, capabilities);
        stream.sample(encoder, FixtureHosts.golden(node, System.currentTimeMillis(), 1), 1);
    }

    /**
     * Sends a second sample and expects its ack as the next frame: the stream is ordered, so a frame the collector
     * sent before the ack (a probe frame) fails this.
     */
    void secondSampleAcknowledgedFirst() throws Exception {
        stream.sample(encoder, FixtureHosts.golden(node, System.currentTimeMillis(), 2), 2);
    }

    /** The next frame the collector sent within {@code wait}, or null. */
    Frame poll(java.time.Duration wait) throws InterruptedException {
        return stream.received.poll(wait.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** The next frame the collector sent, waiting up to 5 s. */
    Frame next() throws InterruptedException {
        Frame frame = stream.received.poll(5, TimeUnit.SECONDS);
        assertNotNull(frame, node + ": no frame from the collector within 5 s");
        return frame;
    }

    Frame.ProbeStart nextStart() throws InterruptedException {
        return assertInstanceOf(Frame.ProbeStart.class, next());
    }

    Frame.ProbeCancel nextCancel() throws InterruptedException {
        return assertInstanceOf(Frame.ProbeCancel.class, next());
    }

    /** Frames received so far that nobody took. */
    List<Frame> pending() {
        return List.copyOf(stream.received);
    }

    void report(String probeId, ProbeRole role, ProbePhase phase, int tcpPort, PerftestResult result, Integer exitCode,
                String error, List<String> output) throws Exception {
        stream.send(new Frame.ProbeReport(probeId, role, phase, tcpPort, result, exitCode, error, output));
    }

    /** A latency client's end: {@code latency}'s round trips, perftest exiting 0. */
    void latencyDone(String probeId, LatencyResult latency) throws Exception {
        stream.send(new Frame.ProbeReport(probeId, ProbeRole.CLIENT, ProbePhase.DONE, 0, null, latency, 0, null, List.of()));
    }

    void listening(String probeId, int tcpPort) throws Exception {
        report(probeId, ProbeRole.SERVER, ProbePhase.LISTENING, tcpPort, null, null, null, List.of());
    }

    Future<Void> close() {
        return stream.ws.close();
    }
}
