package io.rdmamon.collector;

import io.rdmamon.protocol.model.HostSample;
import io.rdmamon.protocol.wire.Frame;
import io.rdmamon.protocol.wire.FrameCodec;
import io.rdmamon.protocol.wire.SampleEncoder;
import io.rdmamon.protocol.wire.WireFormat;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.WebSocket;
import io.vertx.core.http.WebSocketClient;
import io.vertx.core.http.WebSocketConnectOptions;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static io.rdmamon.protocol.testing.Waits.await;
import static io.rdmamon.protocol.testing.Waits.waitFor;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A hand-driven agent stream to a collector on loopback: sends whatever bytes or frames a test gives it and records
 * what the collector sends back and how it closes the stream.
 */
public final class RawAgent {
    private final FrameCodec codec = new FrameCodec();
    public final WebSocket ws;
    public final LinkedBlockingQueue<Frame> received = new LinkedBlockingQueue<>();
    public volatile Short closeCode;
    public volatile String closeReason;

    /** Connects to the stream of the collector on 127.0.0.1:{@code port} with {@code token} (null: none). */
    public RawAgent(WebSocketClient client, int port, String token) throws Exception {
        WebSocketConnectOptions options = new WebSocketConnectOptions().setHost("127.0.0.1").setPort(port)
                .setURI(WireFormat.STREAM_PATH);
        if (token != null) {
            options.putHeader("Authorization", "Bearer " + token);
        }
        ws = await(client.connect(options));
        ws.binaryMessageHandler(b -> {
            try {
                received.add(codec.decode(b.getBytes()));
            } catch (Exception e) {
                throw new AssertionError(e);
            }
        });
        ws.closeHandler(v -> {
            closeReason = ws.closeReason();
            closeCode = ws.closeStatusCode();
        });
    }

    public void send(Frame frame) throws Exception {
        send(codec.encode(frame));
    }

    public void send(byte[] bytes) throws Exception {
        await(ws.writeBinaryMessage(Buffer.buffer(bytes)));
    }

    /**
     * Writes {@code bytes} without waiting for the write: for a message the collector refuses part-way, whose write
     * fails ("WebSocket is closed") whenever the close overtakes the last fragments. The close is what a test asserts.
     */
    public void sendRefused(byte[] bytes) {
        ws.writeBinaryMessage(Buffer.buffer(bytes));
    }

    public void send(String json) throws Exception {
        send(json.getBytes(StandardCharsets.UTF_8));
    }

    /** Sends the frames of sample {@code seq} and expects its ack. */
    public void sample(SampleEncoder encoder, HostSample sample, long seq) throws Exception {
        for (Frame frame : encoder.encode(sample, seq)) {
            send(frame);
        }
        assertEquals(new Frame.Ack(seq), received.poll(5, TimeUnit.SECONDS), "ack of seq " + seq);
    }

    /** Waits for the collector to close this stream; its close code. */
    public short closed() throws InterruptedException {
        waitFor(() -> closeCode != null, "the collector closes the stream");
        return closeCode;
    }
}
