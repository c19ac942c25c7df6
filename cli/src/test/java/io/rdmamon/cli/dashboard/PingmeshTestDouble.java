package io.rdmamon.cli.dashboard;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A TEST DOUBLE of the collector for the pingmesh frame-time bench only: the dashboard's static files from the class
 * path, {@code /api/pingmesh} answered with the next of a few pre-built {@link CannedPingmesh} rounds on each request
 * (so building JSON for 16,000 ports costs this process nothing while the browser is measured), a fixed
 * {@code /api/pingmesh/pair} and an empty probe list. Everything else is 404 (the page's push channel then retries
 * with its backoff, which the bench does not mind). Functional browser tests run against the real collector
 * ({@link SimulatedFleet}), never against this.
 */
final class PingmeshTestDouble implements AutoCloseable {
    private static final Map<String, String> TYPES = Map.of("html", "text/html", "js", "text/javascript", "css", "text/css",
            "json", "application/json", "svg", "image/svg+xml", "png", "image/png");
    private static final byte[] PAIR = """
            {"src":{"node":"node-00001","device":"mlx5_0","port":1,"group":"leaf-0001"},
             "dst":{"node":"node-00001","device":"mlx5_1","port":1,"group":"leaf-0001"},
             "points":[{"timestampMillis":0,"sent":60,"lost":0,"p50Seconds":8e-6,"p99Seconds":1.2e-5,"failed":false,"error":null}],
             "counters":{"src":{"out_of_sequence":0},"dst":{"out_of_sequence":0}}}
            """.getBytes(StandardCharsets.UTF_8);
    private static final byte[] PROBES = "{\"probes\":[],\"limits\":null,\"defaults\":null,\"steps\":[]}".getBytes(StandardCharsets.UTF_8);

    private final HttpServer server;
    private final ExecutorService threads = Executors.newFixedThreadPool(2);
    private final List<byte[]> rounds;
    private final AtomicInteger next = new AtomicInteger();

    PingmeshTestDouble(List<byte[]> rounds) throws IOException {
        this.rounds = List.copyOf(rounds);
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", this::serve);
        server.setExecutor(threads);
        server.start();
    }

    String baseUrl() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    private void serve(HttpExchange exchange) throws IOException {
        try (exchange) {
            String path = exchange.getRequestURI().getPath();
            if (path.equals("/api/pingmesh")) {
                send(exchange, 200, "application/json", rounds.get(Math.floorMod(next.getAndIncrement(), rounds.size())));
            } else if (path.equals("/api/pingmesh/pair")) {
                send(exchange, 200, "application/json", PAIR);
            } else if (path.equals("/api/probes")) {
                send(exchange, 200, "application/json", PROBES);
            } else if (path.startsWith("/api/") || path.contains("..")) {
                send(exchange, 404, "application/json", "{\"error\":\"not in the test double\"}".getBytes(StandardCharsets.UTF_8));
            } else {
                serveStatic(exchange, path.equals("/") ? "/index.html" : path);
            }
        }
    }

    private void serveStatic(HttpExchange exchange, String path) throws IOException {
        try (InputStream in = getClass().getClassLoader().getResourceAsStream("webroot" + path)) {
            if (in == null) {
                send(exchange, 404, "text/plain", ("no " + path).getBytes(StandardCharsets.UTF_8));
                return;
            }
            String extension = path.substring(path.lastIndexOf('.') + 1);
            send(exchange, 200, TYPES.getOrDefault(extension, "application/octet-stream"), in.readAllBytes());
        }
    }

    private static void send(HttpExchange exchange, int status, String type, byte[] body) throws IOException {
        exchange.getResponseHeaders().set("Content-Type", type);
        exchange.getResponseHeaders().set("Cache-Control", "no-store");
        exchange.sendResponseHeaders(status, body.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
        }
    }

    @Override
    public void close() {
        server.stop(0);
        threads.shutdownNow();
    }
}
