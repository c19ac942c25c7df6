package io.rdmamon.agent.stream;

import io.rdmamon.agent.host.Fixtures;
import io.rdmamon.agent.host.HostReader;
import io.rdmamon.protocol.model.HostSample;
import io.rdmamon.protocol.model.IbDevice;
import io.rdmamon.protocol.model.IbPort;
import io.rdmamon.protocol.testing.HostileNames;
import io.rdmamon.protocol.text.WireLimits;
import io.rdmamon.protocol.wire.Frame;
import io.rdmamon.protocol.wire.FrameCodec;
import io.rdmamon.protocol.wire.FrameException;
import io.rdmamon.protocol.wire.HostLayout;
import io.rdmamon.protocol.wire.HostSampleLimits;
import io.rdmamon.protocol.wire.WireFormat;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import static io.rdmamon.protocol.testing.Waits.await;
import static io.rdmamon.protocol.testing.Waits.waitFor;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The streamer fits every sample to the collector's limits before encoding it ({@link HostSampleLimits}) and sends no
 * frame past the collector's ({@code SampleFrames}).
 */
@ExtendWith(VertxExtension.class)
class AgentStreamerLimitsTest {
    private final FrameCodec codec = new FrameCodec();
    private final List<Frame> received = new CopyOnWriteArrayList<>();
    private final List<Integer> sizes = new CopyOnWriteArrayList<>();

    @Test
    void aDeviceNameWithAnEscapeGoesOutEscapedWithAStatusSayingSo(Vertx vertx) throws Exception {
        AgentStreamer streamer = streamerTo(vertx);
        HostSample read = HostReader.forRoot(Fixtures.root("mlx5-roce")).read("node-a");
        IbDevice d = read.devices().get(0);
        IbDevice hostile = new IbDevice("mlx5\u001b[31m_0", d.nodeTypeId(), d.nodeType(), d.nodeGuid(),
                d.sysImageGuid(), d.fwVersion(), d.hcaType(), d.boardId(), d.ports(), d.pci(), d.resources());
        waitFor(() -> streamer.stats().connected(), "the connection");
        streamer.offer(new HostSample("node-a", read.timestampMillis(), List.of(hostile), read.sources()));
        waitFor(() -> received.stream().anyMatch(Frame.Values.class::isInstance), "the first sample");

        Frame.Hello hello = (Frame.Hello) received.get(0);
        assertEquals("mlx5\\u001b[31m_0", hello.layout().devices().get(0).name());
        Frame.Values values = received.stream().filter(Frame.Values.class::isInstance).map(Frame.Values.class::cast)
                .findFirst().orElseThrow();
        assertTrue(values.sources().stream().anyMatch(s -> s.source().equals(HostSampleLimits.SOURCE)
                && s.subject().equals("mlx5\\u001b[31m_0") && !s.success()), values.sources()::toString);
    }

    @Test
    void aSamplePastTheCollectorsFrameLeavesOutItsLargestDeviceNotTheNode(Vertx vertx) throws Exception {
        AgentStreamer streamer = streamerTo(vertx);
        HostSample read = HostReader.forRoot(Fixtures.root("mlx5-roce")).read("node-a");
        IbDevice d = read.devices().get(0);
        // two devices of 1 MiB of counter names of quotes and backslashes each: over 4 MiB once escaped
        Map<String, Long> escaped = HostileNames.escaped(WireLimits.MAX_COUNTERS_PER_GROUP);
        List<IbPort> ports = List.of(d.ports().get(0).toBuilder().counters(escaped).build());
        List<IbDevice> devices = new ArrayList<>(read.devices());
        for (String name : List.of("mlx5_8", "mlx5_9")) {
            devices.add(new IbDevice(name, d.nodeTypeId(), d.nodeType(), d.nodeGuid(), d.sysImageGuid(),
                    d.fwVersion(), d.hcaType(), d.boardId(), ports, null, null));
        }
        waitFor(() -> streamer.stats().connected(), "the connection");
        streamer.offer(new HostSample("node-a", read.timestampMillis(), devices, read.sources()));
        waitFor(() -> received.stream().anyMatch(Frame.Values.class::isInstance), "the first sample");

        assertTrue(sizes.stream().allMatch(size -> size <= WireFormat.DEFAULT_MAX_FRAME_BYTES), sizes::toString);
        Frame.Hello hello = (Frame.Hello) received.get(0);
        List<String> kept = new ArrayList<>(read.devices().stream().map(IbDevice::name).toList());
        kept.add("mlx5_9");
        assertEquals(kept, hello.layout().devices().stream().map(HostLayout.DeviceLayout::name).toList());
        Frame.Values values = received.stream().filter(Frame.Values.class::isInstance).map(Frame.Values.class::cast)
                .findFirst().orElseThrow();
        assertTrue(values.sources().stream().anyMatch(s -> s.source().equals(HostSampleLimits.SOURCE)
                && s.subject().equals("mlx5_8") && s.error().startsWith("device left out")), values.sources()::toString);
    }

    /** A collector configured with a smaller frame says so in its upgrade answer, and the agent keeps to it. */
    @Test
    void theFrameACollectorAnnouncesBoundsEveryFrameSent(Vertx vertx) throws Exception {
        int announced = 256 * 1024;
        AgentStreamer streamer = streamerTo(vertx, Integer.toString(announced));
        HostSample read = HostReader.forRoot(Fixtures.root("mlx5-roce")).read("node-a");
        IbDevice d = read.devices().get(0);
        // a device of about 400 KiB of counter names: far within the default 4 MiB, past the announced 256 KiB
        Map<String, Long> counters = new java.util.TreeMap<>();
        for (int i = 0; i < 20_000; i++) {
            counters.put("counter_with_a_long_name_" + i, (long) i);
        }
        List<IbPort> ports = List.of(d.ports().get(0).toBuilder().counters(counters).build());
        List<IbDevice> devices = new ArrayList<>(read.devices());
        devices.add(new IbDevice("mlx5_9", d.nodeTypeId(), d.nodeType(), d.nodeGuid(), d.sysImageGuid(),
                d.fwVersion(), d.hcaType(), d.boardId(), ports, null, null));
        waitFor(() -> streamer.stats().connected(), "the connection");
        streamer.offer(new HostSample("node-a", read.timestampMillis(), devices, read.sources()));
        waitFor(() -> received.stream().anyMatch(Frame.Values.class::isInstance), "the first sample");

        assertTrue(sizes.stream().allMatch(size -> size <= announced), sizes::toString);
        Frame.Hello hello = (Frame.Hello) received.get(0);
        assertEquals(read.devices().stream().map(IbDevice::name).toList(),
                hello.layout().devices().stream().map(HostLayout.DeviceLayout::name).toList());
        Frame.Values values = received.stream().filter(Frame.Values.class::isInstance).map(Frame.Values.class::cast)
                .findFirst().orElseThrow();
        assertTrue(values.sources().stream().anyMatch(s -> s.source().equals(HostSampleLimits.SOURCE)
                && s.subject().equals("mlx5_9") && s.error().contains("262144 bytes")), values.sources()::toString);
    }

    private AgentStreamer streamerTo(Vertx vertx) throws Exception {
        return streamerTo(vertx, null);
    }

    /**
     * A streamer of node-a to a collector that decodes what it receives into {@link #received} and its sizes into
     * {@link #sizes}; it takes messages of any size, so that a test sees what the agent would send, and announces
     * {@code maxFrameBytes} (null: no header, as a collector that predates it).
     */
    private AgentStreamer streamerTo(Vertx vertx, String maxFrameBytes) throws Exception {
        HttpServer collector = await(vertx.createHttpServer(new HttpServerOptions()
                .setMaxWebSocketMessageSize(64 * 1024 * 1024)).requestHandler(request -> announce(request,
                        maxFrameBytes).toWebSocket()
                .onSuccess(ws -> ws.binaryMessageHandler(message -> {
                    sizes.add(message.length());
                    try {
                        received.add(codec.decode(message.getBytes()));
                    } catch (FrameException e) {
                        throw new AssertionError(e);
                    }
                }))).listen(0, "127.0.0.1"));
        AgentStreamer streamer = new AgentStreamer(
                AgentStreamerOptions.of("http://127.0.0.1:" + collector.actualPort(), "node-a"));
        await(vertx.deployVerticle(streamer));
        return streamer;
    }

    private static HttpServerRequest announce(HttpServerRequest request, String maxFrameBytes) {
        if (maxFrameBytes != null) {
            request.response().putHeader(WireFormat.MAX_FRAME_HEADER, maxFrameBytes);
        }
        return request;
    }
}
