package io.rdmamon.collector;

import io.vertx.core.Vertx;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Route;
import io.vertx.ext.web.Router;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

import java.io.IOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicReference;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

import static io.rdmamon.protocol.testing.Waits.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every GET route of a real collector, enumerated from its router, with a malformed percent-escape ({@code %ZZ})
 * in the path and in a query parameter: a 400 with the JSON error body naming the segment or parameter, no stack
 * trace logged, and the collector answers the next good request.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@ExtendWith(VertxExtension.class)
class MalformedEscapesApiTest {
    private final AtomicReference<Router> router = new AtomicReference<>();
    private final List<LogRecord> traces = new ArrayList<>();
    private final Handler traceCapture = new Handler() {
        @Override
        public void publish(LogRecord record) {
            // a loaded machine's blocked-thread warnings are not the requests' doing
            boolean load = String.valueOf(record.getLoggerName()).endsWith("BlockedThreadChecker");
            if (!load && (record.getThrown() != null || record.getLevel().intValue() >= Level.WARNING.intValue())) {
                synchronized (traces) {
                    traces.add(record);
                }
            }
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    };
    private final Logger root = Logger.getLogger("");
    private Collector.Running collector;

    @BeforeAll
    void start(Vertx vertx) throws Exception {
        collector = await(Collector.start(vertx, CollectorConfig.defaults().withListen("127.0.0.1:0"),
                List.of(router::set)));
    }

    @BeforeEach
    void captureLogs() {
        root.addHandler(traceCapture);
    }

    @AfterEach
    void releaseLogs() {
        root.removeHandler(traceCapture);
    }

    @Test
    void everyGetRouteRefusesAMalformedEscapeInItsPathAsJson() throws Exception {
        Set<String> paths = getPaths();
        assertTrue(paths.containsAll(List.of("/api/nodes/:node/topology", "/api/pingmesh/pair", "/api/diagnoses",
                "/api/probes/:id", "/runbooks/:rule")), paths.toString());
        for (String path : paths) {
            String uri = path.contains(":") ? path.replaceAll(":[A-Za-z]+", "%ZZ") : path + "/%ZZ";
            assertRefused(uri, "path segment '%ZZ'");
        }
    }

    @Test
    void everyGetRouteRefusesAMalformedEscapeInAQueryParameterAsJson() throws Exception {
        for (String path : getPaths()) {
            assertRefused(path.replaceAll(":[A-Za-z]+", "x") + "?q=%ZZ", "query parameter 'q'");
        }
    }

    @Test
    void theReviewedRequestsAreRefusedNamingTheirParameter() throws Exception {
        assertRefused("/api/pingmesh?group=%ZZ", "query parameter 'group'");
        assertRefused("/api/pingmesh/pair?srcNode=a&srcDevice=%ZZ&srcPort=1", "query parameter 'srcDevice'");
        assertRefused("/api/probes?include=%ZZ", "query parameter 'include'");
        assertRefused("/api/diagnoses?node=%Z", "query parameter 'node'");
        assertRefused("/api/nodes/x/nccl?q=%", "query parameter 'q'");
        assertRefused("/api/nodes/%ZZ/topology", "path segment '%ZZ'");
    }

    @Test
    void wellFormedEscapesStillReachTheRoutes() throws Exception {
        Response response = get("/api/nodes/gpu%2D01");
        assertEquals(404, response.status(), response.body());
        assertTrue(response.body().contains("gpu-01"), response.body());
    }

    /** The path of every route that answers GET; the route without a path (the escape check itself) aside. */
    private Set<String> getPaths() {
        Set<String> paths = new TreeSet<>();
        for (Route route : router.get().getRoutes()) {
            if (route.getPath() != null && (route.methods() == null || route.methods().isEmpty()
                    || route.methods().contains(HttpMethod.GET))) {
                paths.add(route.getPath());
            }
        }
        return paths;
    }

    private void assertRefused(String uri, String naming) throws Exception {
        Response refused = get(uri);
        assertEquals(400, refused.status(), uri + " -> " + refused.body());
        assertTrue(refused.contentType().startsWith("application/json"), uri + " -> " + refused.contentType());
        String error = new JsonObject(refused.body()).getString("error");
        assertEquals("malformed percent-escape in " + naming, error, uri);
        assertEquals(200, get("/api/nodes").status(), "the next good request after " + uri);
        synchronized (traces) {
            assertTrue(traces.isEmpty(), uri + " logged " + traces.stream().map(LogRecord::getMessage).toList());
        }
    }

    /**
     * One request over a plain socket: the HTTP clients of the JDK and Vert.x would refuse or re-encode a malformed
     * escape, and the collector must be met with the bytes a scanner sends.
     */
    private Response get(String uri) throws IOException {
        try (Socket socket = new Socket("127.0.0.1", collector.port())) {
            socket.setSoTimeout(10_000);
            socket.getOutputStream().write(("GET " + uri + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            String answer = new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            int headEnd = answer.indexOf("\r\n\r\n");
            assertTrue(headEnd > 0, uri + " -> " + answer);
            String[] head = answer.substring(0, headEnd).split("\r\n");
            String contentType = Arrays.stream(head).skip(1).filter(h -> h.toLowerCase(Locale.ROOT).startsWith("content-type:"))
                    .map(h -> h.substring(h.indexOf(':') + 1).strip()).findFirst().orElse("");
            return new Response(Integer.parseInt(head[0].split(" ")[1]), contentType, answer.substring(headEnd + 4));
        }
    }

    private record Response(int status, String contentType, String body) {
    }
}
