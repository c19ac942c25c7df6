package io.rdmamon.collector.http;

import io.rdmamon.collector.Collector;
import io.rdmamon.collector.CollectorConfig;
import io.rdmamon.collector.HttpLimits;
import io.rdmamon.collector.SeriesValue;
import io.rdmamon.protocol.testing.FixtureHosts;
import io.rdmamon.protocol.wire.Frame;
import io.rdmamon.protocol.wire.FrameCodec;
import io.rdmamon.protocol.wire.SampleEncoder;
import io.rdmamon.protocol.wire.WireFormat;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.WebSocket;
import io.vertx.core.http.WebSocketClient;
import io.vertx.core.http.WebSocketConnectOptions;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

import static io.rdmamon.protocol.testing.Waits.await;
import static io.rdmamon.protocol.testing.Waits.waitFor;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The connection bounds of a real collector on loopback, driven with raw sockets: silent and slowloris
 * connections, a keep-alive connection trickling its next request, the connection cap, and the long-lived
 * connections that must survive (an agent WebSocket, a dashboard event stream).
 */
@ExtendWith(VertxExtension.class)
class ConnectionGuardTest {
    private static final Duration CLOSE_LIMIT = Duration.ofSeconds(8);
    private final List<Socket> sockets = new ArrayList<>();
    private Vertx vertx;
    private Collector.Running collector;

    @BeforeEach
    void setUp(Vertx vertx) {
        this.vertx = vertx;
    }

    @AfterEach
    void tearDown() throws Exception {
        for (Socket socket : sockets) {
            socket.close();
        }
    }

    private void start(HttpLimits limits) throws Exception {
        collector = await(Collector.start(vertx, CollectorConfig.defaults().withListen("127.0.0.1:0").withHttp(limits)));
    }

    private Socket connect() throws IOException {
        Socket socket = new Socket("127.0.0.1", collector.port());
        sockets.add(socket);
        return socket;
    }

    @Test
    void silentAndSlowlorisConnectionsAreCutByTheRequestDeadline() throws Exception {
        // a 1 s request deadline and a 30 s idle timeout: a byte every 200 ms keeps the idle timer from ever firing
        start(HttpLimits.defaults().withTimeouts(Duration.ofSeconds(1), Duration.ofSeconds(30)));
        Socket silent = connect();
        Socket slowloris = connect();
        byte[] request = "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Pad: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
                .getBytes(StandardCharsets.US_ASCII);
        Trickle trickle = new Trickle(slowloris, request);
        Socket slowBody = connect();
        slowBody.getOutputStream().write("POST /api/probes HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"
                .getBytes(StandardCharsets.US_ASCII));
        Trickle bodyTrickle = new Trickle(slowBody, " ".repeat(99).getBytes(StandardCharsets.US_ASCII));
        waitFor(() -> closedByPeer(silent), "the silent connection closed", CLOSE_LIMIT);
        waitFor(trickle::closedWhileTrickling, "the slowloris connection closed", CLOSE_LIMIT);
        waitFor(bodyTrickle::closedWhileTrickling, "the connection trickling a body closed", CLOSE_LIMIT);
        assertTrue(trickle.sent < request.length, "cut before its headers were complete: " + trickle.sent);
        assertTrue(bodyTrickle.sent < 99, "cut before its body was complete: " + bodyTrickle.sent);
        assertEquals(3.0, counter("rdmamon_collector_http_connections_timed_out_total"));
    }

    @Test
    void aKeptAliveConnectionTricklingItsNextRequestIsCutByTheIdleTimeout() throws Exception {
        // the request deadline (30 s) is out of reach: only the idle timeout (2 s) can close this one
        start(HttpLimits.defaults().withTimeouts(Duration.ofSeconds(30), Duration.ofSeconds(2)));
        Socket socket = connect();
        OutputStream out = socket.getOutputStream();
        out.write("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        BufferedReader in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.US_ASCII));
        assertEquals("HTTP/1.1 200 OK", in.readLine());
        for (String line; !(line = in.readLine()).isEmpty(); ) {
            assertFalse(line.equalsIgnoreCase("connection: close"), "kept alive");
        }
        assertEquals("{\"status\":\"ok\"}", readBody(in, "{\"status\":\"ok\"}".length()));
        Trickle trickle = new Trickle(socket, "GET /healthz HTTP/1.1\r\nX-Pad: ".concat("b".repeat(200))
                .getBytes(StandardCharsets.US_ASCII));
        waitFor(trickle::closedWhileTrickling, "the trickling kept-alive connection closed", CLOSE_LIMIT);
        assertTrue(trickle.sent < 30, "closed at the idle timeout, a byte every 200 ms: " + trickle.sent);
    }

    @Test
    void connectionsBeyondTheCapAreAnswered503NamingTheLimitAndCounted() throws Exception {
        start(HttpLimits.defaults().withMaxConnections(3));
        for (int i = 0; i < 3; i++) {
            connect();
        }
        waitFor(() -> counter("rdmamon_collector_http_connections") == 3, "three connections held");
        Socket refused = connect();
        refused.getOutputStream().write("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        refused.setSoTimeout(5000);
        String answer = new String(refused.getInputStream().readAllBytes(), StandardCharsets.UTF_8); // to the close
        assertTrue(answer.startsWith("HTTP/1.1 503 "), answer);
        JsonObject body = new JsonObject(answer.substring(answer.indexOf("\r\n\r\n") + 4));
        assertEquals("connection limit reached: 3 connections are open (http.maxConnections); retry later",
                body.getString("error"));
        assertEquals(1.0, counter("rdmamon_collector_http_connections_refused_total"));

        sockets.get(0).close();
        waitFor(() -> counter("rdmamon_collector_http_connections") == 2, "a held connection went away");
        Socket admitted = connect();
        admitted.getOutputStream().write("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        assertEquals("HTTP/1.1 200 OK", new BufferedReader(new InputStreamReader(admitted.getInputStream(),
                StandardCharsets.US_ASCII)).readLine(), "room again once one closed");
    }

    @Test
    void aHealthyAgentWebSocketAndADashboardStreamOutliveTheTimeouts() throws Exception {
        // deadlines far shorter than the connections' lives: 500 ms to a request, 2 s without a byte (twice the
        // dashboard's 1 s tick, so that a tick delayed by a loaded machine does not look like a dead peer)
        start(HttpLimits.defaults().withTimeouts(Duration.ofMillis(500), Duration.ofSeconds(2)));
        FrameCodec codec = new FrameCodec();
        WebSocketClient client = vertx.createWebSocketClient(); // held: Vert.x closes an unreachable client
        WebSocket agent = await(client.connect(new WebSocketConnectOptions().setHost("127.0.0.1")
                .setPort(collector.port()).setURI(WireFormat.STREAM_PATH)));
        AtomicBoolean agentClosed = new AtomicBoolean();
        agent.closeHandler(v -> agentClosed.set(true));
        long now = System.currentTimeMillis();
        for (Frame frame : new SampleEncoder("gpu-01", "test", 1000).encode(FixtureHosts.golden("gpu-01", now, 1), 1)) {
            await(agent.writeBinaryMessage(Buffer.buffer(codec.encode(frame))));
        }
        long heartbeats = vertx.setPeriodic(300, id -> agent.writeBinaryMessage(
                Buffer.buffer(codec.encode(new Frame.Heartbeat(System.currentTimeMillis())))));

        Socket stream = connect();
        stream.getOutputStream().write("GET /api/live HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        BufferedReader events = new BufferedReader(new InputStreamReader(stream.getInputStream(), StandardCharsets.UTF_8));
        assertEquals("HTTP/1.1 200 OK", events.readLine());
        stream.setSoTimeout(8000);
        long until = System.currentTimeMillis() + 6000; // three idle timeouts, twelve request deadlines
        int fleetEvents = 0;
        while (System.currentTimeMillis() < until) {
            String line = events.readLine();
            assertTrue(line != null, "the dashboard stream stays open");
            if (line.equals("event: fleet")) {
                fleetEvents++;
            }
        }
        vertx.cancelTimer(heartbeats);
        assertTrue(fleetEvents >= 2, "a fleet event every tick keeps the stream alive: " + fleetEvents);
        assertFalse(agentClosed.get(), "the agent's WebSocket stays open");
        assertEquals(1, collector.store().connections());
        assertEquals(0.0, counter("rdmamon_collector_http_connections_timed_out_total"));
        await(agent.close());
    }

    @Test
    void closedWebSocketsAndRequestsGiveTheirPlaceBack() throws Exception {
        // a cap of 5: if closed connections kept their place, the sixth agent or request would be refused
        start(HttpLimits.defaults().withMaxConnections(5));
        FrameCodec codec = new FrameCodec();
        long now = System.currentTimeMillis();
        WebSocketClient client = vertx.createWebSocketClient(); // held: Vert.x closes an unreachable client
        for (int i = 0; i < 12; i++) {
            WebSocket agent = await(client.connect(new WebSocketConnectOptions()
                    .setHost("127.0.0.1").setPort(collector.port()).setURI(WireFormat.STREAM_PATH)));
            for (Frame frame : new SampleEncoder("gpu-" + i, "test", 1000).encode(FixtureHosts.golden("gpu-" + i, now, 1), 1)) {
                await(agent.writeBinaryMessage(Buffer.buffer(codec.encode(frame))));
            }
            await(agent.close());
            try (Socket request = new Socket("127.0.0.1", collector.port())) {
                request.getOutputStream().write("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
                        .getBytes(StandardCharsets.US_ASCII));
                String status = new BufferedReader(new InputStreamReader(request.getInputStream(), StandardCharsets.US_ASCII))
                        .readLine();
                assertEquals("HTTP/1.1 200 OK", status, "request after " + (i + 1) + " closed agents");
            }
        }
        waitFor(() -> counter("rdmamon_collector_http_connections") == 0.0, "every closed connection is forgotten");
        assertEquals(0.0, counter("rdmamon_collector_http_connections_refused_total"));
    }

    /** Sends one byte of {@code bytes} per call, at most every 200 ms, and tells whether the peer has closed. */
    private static final class Trickle {
        private final Socket socket;
        private final byte[] bytes;
        private int sent;
        private long lastMillis;

        Trickle(Socket socket, byte[] bytes) {
            this.socket = socket;
            this.bytes = bytes;
        }

        boolean closedWhileTrickling() {
            long now = System.currentTimeMillis();
            if (now - lastMillis >= 200 && sent < bytes.length) {
                lastMillis = now;
                try {
                    OutputStream out = socket.getOutputStream();
                    out.write(bytes[sent]);
                    out.flush();
                    sent++;
                } catch (IOException e) {
                    return true;
                }
            }
            return closedByPeer(socket);
        }
    }

    /** Whether the peer closed {@code socket}: end of stream or a reset within a 1 ms read. */
    private static boolean closedByPeer(Socket socket) {
        try {
            socket.setSoTimeout(1);
            InputStream in = socket.getInputStream();
            return in.read() < 0;
        } catch (SocketTimeoutException e) {
            return false;
        } catch (IOException e) {
            return true;
        }
    }

    private static String readBody(BufferedReader in, int length) throws IOException {
        char[] body = new char[length];
        int read = 0;
        while (read < length) {
            read += in.read(body, read, length - read);
        }
        return new String(body);
    }

    private double counter(String series) {
        return SeriesValue.of(collector.registry(), series);
    }
}
