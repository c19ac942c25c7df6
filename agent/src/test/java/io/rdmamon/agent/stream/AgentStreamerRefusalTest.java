package io.rdmamon.agent.stream;

import io.rdmamon.agent.host.Fixtures;
import io.rdmamon.agent.host.HostReader;
import io.rdmamon.protocol.model.HostSample;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.net.NetServer;
import io.vertx.core.net.NetSocket;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.logging.SimpleFormatter;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static io.rdmamon.protocol.testing.Waits.await;
import static io.rdmamon.protocol.testing.Waits.waitFor;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * Issue 23 item 10: a refused agent logged {@code SEVERE: Unhandled exception … WebSocket is closed} from
 * {@code sendPending}. The collector's close frame marks the socket closed before the TCP connection ends and the
 * close handler runs; a sample offered in between was written to the closed socket. A hand-made WebSocket server
 * makes that window as long as the test wants: it refuses the hello with a close frame and ends the TCP connection
 * only after the agent has been offered more samples.
 */
@ExtendWith(VertxExtension.class)
class AgentStreamerRefusalTest {
    private static final short POLICY = 1008;
    private static final String REASON = "node name conflict: node-a is streaming on another live connection";
    private static final String WEBSOCKET_GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";
    private static final Pattern KEY = Pattern.compile("(?im)^Sec-WebSocket-Key:\\s*(\\S+)\\s*$");
    private final List<LogRecord> records = new CopyOnWriteArrayList<>();
    private final Handler capture = new Handler() {
        @Override
        public void publish(LogRecord record) {
            records.add(record);
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    };
    /** The root logger: the agent's lines and Vert.x's "Unhandled exception" both reach it. */
    private final Logger root = Logger.getLogger("");
    private final AtomicReference<NetSocket> agentSocket = new AtomicReference<>();
    private final AtomicInteger closeFramesFromAgent = new AtomicInteger();
    private Vertx vertx;
    private NetServer collector;

    @BeforeEach
    void start(Vertx vertx) throws Exception {
        root.addHandler(capture);
        this.vertx = vertx;
        collector = await(vertx.createNetServer().connectHandler(this::refuseAtHello).listen(0, "127.0.0.1"));
    }

    @AfterEach
    void stop() throws Exception {
        root.removeHandler(capture);
    }

    @Test
    void aRefusalIsOneLineWithItsCodeAndReason() throws Exception {
        HostSample sample = HostReader.forRoot(Fixtures.root("mlx5-roce")).read("node-a");
        AgentStreamer streamer = new AgentStreamer(AgentStreamerOptions.of("http://127.0.0.1:" + collector.actualPort(),
                "node-a").withBackoff(Duration.ofSeconds(30), Duration.ofSeconds(30)));
        await(vertx.deployVerticle(streamer));
        waitFor(() -> streamer.stats().connected(), "the upgrade");
        streamer.offer(sample); // with the hello, which is refused
        waitFor(() -> closeFramesFromAgent.get() == 1, "the agent's answer to the close frame");

        for (int i = 0; i < 3; i++) {
            streamer.offer(sample); // the socket is closed, its close handler has not run: these must not be written
        }
        agentSocket.get().close();
        waitFor(() -> !lines(String.valueOf(POLICY)).isEmpty(), "the refusal logged");

        List<LogRecord> refusals = records.stream().filter(r -> format(r).contains(String.valueOf(POLICY))).toList();
        assertEquals(1, refusals.size(), () -> "one line for the refusal: " + lines(""));
        LogRecord refusal = refusals.get(0);
        assertEquals(Level.WARNING, refusal.getLevel());
        assertEquals("closed by collector (" + POLICY + " " + REASON + ")", format(refusal).split(";")[0]);
        assertNull(refusal.getThrown(), "no stack trace");
        assertEquals(List.of(), records.stream().filter(r -> r.getLevel() == Level.SEVERE).map(this::format).toList());
    }

    /** Completes the upgrade, then answers the agent's first frame (its hello) with a close frame and keeps TCP open. */
    private void refuseAtHello(NetSocket socket) {
        agentSocket.set(socket);
        Buffer request = Buffer.buffer();
        Buffer frames = Buffer.buffer();
        AtomicBoolean upgraded = new AtomicBoolean();
        socket.handler(data -> {
            if (!upgraded.get()) {
                request.appendBuffer(data);
                String head = request.toString(StandardCharsets.ISO_8859_1);
                Matcher key = KEY.matcher(head);
                if (head.contains("\r\n\r\n") && key.find()) {
                    upgraded.set(true);
                    socket.write("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                            + "Sec-WebSocket-Accept: " + accept(key.group(1)) + "\r\n\r\n");
                }
                return;
            }
            if (frames.length() == 0) {
                socket.write(closeFrame());
            }
            frames.appendBuffer(data);
            closeFramesFromAgent.set(countCloseFrames(frames));
        });
    }

    private static Buffer closeFrame() {
        byte[] reason = REASON.getBytes(StandardCharsets.UTF_8);
        return Buffer.buffer().appendByte((byte) 0x88).appendByte((byte) (2 + reason.length))
                .appendShort(POLICY).appendBytes(reason);
    }

    /** Close frames among the complete frames of {@code frames}; a client's frames are always masked (RFC 6455 §5.2). */
    private static int countCloseFrames(Buffer frames) {
        int closes = 0;
        int at = 0;
        while (at + 2 <= frames.length()) {
            int opcode = frames.getByte(at) & 0x0f;
            long length = frames.getByte(at + 1) & 0x7f;
            int header = length == 126 ? 4 : length == 127 ? 10 : 2;
            if (at + header > frames.length()) {
                break;
            }
            if (length == 126) {
                length = frames.getUnsignedShort(at + 2);
            } else if (length == 127) {
                length = frames.getLong(at + 2);
            }
            long end = at + header + 4 + length; // 4: the mask
            if (end > frames.length()) {
                break;
            }
            closes += opcode == 0x8 ? 1 : 0;
            at = (int) end;
        }
        return closes;
    }

    private static String accept(String key) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-1")
                    .digest((key + WEBSOCKET_GUID).getBytes(StandardCharsets.ISO_8859_1));
            return Base64.getEncoder().encodeToString(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new AssertionError(e);
        }
    }

    private List<String> lines(String containing) {
        return records.stream().map(this::format).filter(line -> line.contains(containing)).toList();
    }

    private String format(LogRecord record) {
        return new SimpleFormatter().formatMessage(record);
    }
}
