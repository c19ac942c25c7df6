package io.rdmamon.agent.stream;

import io.rdmamon.agent.host.Fixtures;
import io.rdmamon.agent.host.HostReader;
import io.rdmamon.protocol.model.HostSample;
import io.rdmamon.protocol.wire.Frame;
import io.rdmamon.protocol.wire.FrameCodec;
import io.rdmamon.protocol.wire.FrameException;
import io.rdmamon.protocol.wire.WireFormat;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static io.rdmamon.protocol.testing.Waits.await;
import static io.rdmamon.protocol.testing.Waits.waitFor;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * An optional frame goes only to a collector whose upgrade answer listed its type: a collector that predates the type
 * refuses unknown frames, so sending one there would cost the connection.
 */
@ExtendWith(VertxExtension.class)
class AgentStreamerOptionalFramesTest {
    private final FrameCodec codec = new FrameCodec();
    private final List<Frame> received = new CopyOnWriteArrayList<>();

    /** A bare collector endpoint that announces {@code accepts} (no header when null) and records every frame. */
    private HttpServer collector(Vertx vertx, String accepts) throws Exception {
        return await(vertx.createHttpServer().requestHandler(request -> {
            if (accepts != null) {
                request.response().putHeader(WireFormat.ACCEPTS_HEADER, accepts);
            }
            request.toWebSocket().onSuccess(ws -> ws.binaryMessageHandler(message -> {
                try {
                    received.add(codec.decode(message.getBytes()));
                } catch (FrameException e) {
                    throw new AssertionError(e);
                }
            }));
        }).listen(0, "127.0.0.1"));
    }

    private AgentStreamer streamTo(Vertx vertx, HttpServer server) throws Exception {
        AgentStreamer streamer = new AgentStreamer(
                AgentStreamerOptions.of("http://127.0.0.1:" + server.actualPort(), "node-a"));
        await(vertx.deployVerticle(streamer));
        HostSample sample = HostReader.forRoot(Fixtures.root("mlx5-roce")).read("node-a");
        waitFor(() -> streamer.stats().connected(), "the connection");
        streamer.offer(sample); // the hello goes with the first sample
        waitFor(() -> received.stream().anyMatch(Frame.Values.class::isInstance), "the first sample");
        return streamer;
    }

    @Test
    void aListedTypeIsSentAndAnUnlistedOneIsDropped(Vertx vertx) throws Exception {
        AgentStreamer streamer = streamTo(vertx, collector(vertx, "fabric, kernel-events"));
        assertTrue(streamer.collectorAccepts("fabric"));
        assertTrue(await(streamer.sendOptional("fabric", new Frame.Heartbeat(42))));
        assertFalse(await(streamer.sendOptional("future-thing", new Frame.Heartbeat(43))));
        waitFor(() -> received.contains(new Frame.Heartbeat(42)), "the accepted frame on the collector");
        assertFalse(received.contains(new Frame.Heartbeat(43)), "the unlisted frame never left the agent");
    }

    @Test
    void aCollectorWithoutTheHeaderGetsNoOptionalFrame(Vertx vertx) throws Exception {
        AgentStreamer streamer = streamTo(vertx, collector(vertx, null));
        assertFalse(streamer.collectorAccepts("fabric"));
        assertFalse(await(streamer.sendOptional("fabric", new Frame.Heartbeat(42))));
        assertEquals(List.of(), received.stream().filter(Frame.Heartbeat.class::isInstance).toList());
    }
}
