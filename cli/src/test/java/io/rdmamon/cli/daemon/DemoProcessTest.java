package io.rdmamon.cli.daemon;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rdmamon.protocol.testing.Waits;
import org.junit.jupiter.api.Test;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * {@code rdmamon demo} as its own JVM, as a user runs it: with {@code --log-format json} every line on stderr is one
 * JSON event (collector and agents alike), and SIGTERM stops it, fleet and collector, within its bound.
 */
class DemoProcessTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    /**
     * {@link RunUntilStopped} gives Vert.x 10 s to close; the simulator's clock stop before it, the tree deletion and
     * the JVM's exit come on top (3 nodes stop in about a second; 200 took 46 s before the bound on --nodes).
     */
    private static final Duration STOP_BOUND = Duration.ofSeconds(15);

    @Test
    void jsonLogLinesAndABoundedStopOnSigterm() throws Exception {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process demo = new ProcessBuilder(java.toString(), "-Xmx256m", "-cp", System.getProperty("java.class.path"),
                "io.rdmamon.cli.Main", "demo", "--nodes", "3", "--listen", "127.0.0.1:0", "--interval", "500ms",
                "--log-format", "json").start();
        List<String> errLines = Collections.synchronizedList(new ArrayList<>());
        Thread errReader = new Thread(() -> {
            try (BufferedReader err = new BufferedReader(new InputStreamReader(demo.getErrorStream(),
                    StandardCharsets.UTF_8))) {
                err.lines().forEach(errLines::add);
            } catch (IOException e) {
                errLines.add("(stderr: " + e + ")");
            }
        }, "demo-stderr");
        errReader.setDaemon(true);
        errReader.start();
        try {
            String api = null;
            BufferedReader out = new BufferedReader(new InputStreamReader(demo.getInputStream(), StandardCharsets.UTF_8));
            for (String line = out.readLine(); line != null && api == null; line = out.readLine()) {
                if (line.strip().startsWith("nodes API")) {
                    api = line.strip().substring("nodes API".length()).strip();
                }
            }
            assertTrue(api != null, () -> "no welcome; stderr: " + errLines);
            HttpClient http = HttpClient.newHttpClient();
            URI nodesApi = URI.create(api);
            int nodes = Waits.pollUntil(() -> JSON.readTree(http.send(HttpRequest.newBuilder(nodesApi).build(),
                    HttpResponse.BodyHandlers.ofString()).body()).get("nodes").size(), n -> n == 3,
                    Duration.ofSeconds(60), Duration.ofMillis(200));
            assertEquals(3, nodes, () -> "nodes registered; stderr: " + errLines);

            long stopping = System.nanoTime();
            demo.destroy(); // SIGTERM
            if (!demo.waitFor(STOP_BOUND.toSeconds() + 5, TimeUnit.SECONDS)) {
                fail("demo still running " + (STOP_BOUND.toSeconds() + 5) + " s after SIGTERM");
            }
            Duration stop = Duration.ofNanos(System.nanoTime() - stopping);
            assertTrue(stop.compareTo(STOP_BOUND) < 0, () -> "SIGTERM took " + stop.toMillis() + " ms");
            errReader.join(5_000);
        } finally {
            demo.destroyForcibly();
        }
        List<String> lines = List.copyOf(errLines);
        assertTrue(lines.stream().anyMatch(l -> l.contains("connected from")), () -> "no agent connected: " + lines);
        for (String line : lines) {
            JsonNode event;
            try {
                event = JSON.readTree(line);
            } catch (IOException e) {
                throw new AssertionError("not one JSON event: " + line + "\nall: " + lines, e);
            }
            for (String field : List.of("ts", "level", "logger", "msg")) {
                assertTrue(event.hasNonNull(field), () -> field + " missing: " + line);
            }
            assertTrue(event.get("ts").asText().matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z"), line);
        }
    }
}
