package io.rdmamon.cli.log;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.channels.ClosedChannelException;
import java.time.Instant;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Both log formats: one event per line whatever the message holds; the JSON one parses back to what was logged. */
class LogFormatterTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Instant AT = Instant.parse("2026-11-26T14:20:30Z");

    private static LogRecord record(Level level, String logger, String message, Throwable thrown, Object... params) {
        LogRecord record = new LogRecord(level, message);
        record.setInstant(AT);
        record.setLoggerName(logger);
        record.setThrown(thrown);
        record.setParameters(params.length == 0 ? null : params);
        return record;
    }

    /** Messages that would break a line, a JSON string or a naive escaper. */
    static Stream<Arguments> awkwardMessages() {
        return Stream.of(
                Arguments.of("plain", "plain"),
                Arguments.of("two\nlines", "two\\nlines"),
                Arguments.of("crlf\r\nend", "crlf\\r\\nend"),
                Arguments.of("say \"hi\" \\ back", "say \"hi\" \\ back"),
                Arguments.of("tab\there", "tab\\there"),
                Arguments.of("bell\u0007 nul\u0000", "bell\\u0007 nul\\u0000"),
                Arguments.of("unicode: naïve 节点 😀 µs", "unicode: naïve 节点 😀 µs"),
                Arguments.of("line\u2028sep\u0085nel", "line\\u2028sep\\u0085nel"),
                Arguments.of("\n\nMembers {size:2, ver:2} [\n\tMember [10.0.0.1]:5701 - this\n]\n",
                        "\\n\\nMembers {size:2, ver:2} [\\n\\tMember [10.0.0.1]:5701 - this\\n]\\n"),
                Arguments.of("", ""));
    }

    @ParameterizedTest
    @MethodSource("awkwardMessages")
    void aTextEventIsOneLine(String message, String written) {
        String line = new TextLogFormatter().format(record(Level.INFO, "io.rdmamon.collector.ingest.AgentConnection",
                message, null));
        assertEquals("2026-11-26T14:20:30.000Z INFO  AgentConnection " + written + "\n", line);
    }

    @ParameterizedTest
    @MethodSource("awkwardMessages")
    void aJsonEventIsOneLineOfAsciiThatParsesBackToTheMessage(String message, String ignored) throws IOException {
        String line = new JsonLogFormatter().format(record(Level.WARNING, "io.rdmamon.agent.stream.AgentStreamer",
                message, new IOException("peer \"reset\"\nhard")));
        assertTrue(line.endsWith("\n"));
        assertEquals(1, line.lines().count(), line);
        assertTrue(line.chars().allMatch(c -> c >= 0x20 && c < 0x7f || c == '\n'), line);
        JsonNode event = JSON.readTree(line);
        assertEquals(List.of("ts", "level", "logger", "msg", "thrown"), iterable(event.fieldNames()));
        assertEquals("2026-11-26T14:20:30.000Z", event.get("ts").asText());
        assertEquals("WARN", event.get("level").asText());
        assertEquals("io.rdmamon.agent.stream.AgentStreamer", event.get("logger").asText());
        assertEquals(message, event.get("msg").asText());
        assertEquals("java.io.IOException", event.get("thrown").get("class").asText());
        assertEquals("peer \"reset\"\nhard", event.get("thrown").get("message").asText());
        assertFalse(event.get("thrown").has("stack"), "an I/O failure below SEVERE is expected: no stack");
    }

    @Test
    void parametersAreFilledInAndLevelsHaveTheirUsualNames() throws IOException {
        LogRecord record = record(Level.SEVERE, "", "agent {0} refused: {1}", null, "gpu-7", "1008");
        assertEquals("2026-11-26T14:20:30.000Z ERROR root agent gpu-7 refused: 1008\n", new TextLogFormatter().format(record));
        JsonNode event = JSON.readTree(new JsonLogFormatter().format(record));
        assertEquals("agent gpu-7 refused: 1008", event.get("msg").asText());
        assertNull(event.get("thrown"));
        List<String> levels = Stream.of(Level.SEVERE, Level.WARNING, Level.INFO, Level.CONFIG, Level.FINE, Level.FINEST)
                .map(l -> new TextLogFormatter().format(record(l, "x.Y", "m", null)).substring(25, 32)).toList();
        assertEquals(List.of("ERROR Y", "WARN  Y", "INFO  Y", "CONFIG ", "DEBUG Y", "TRACE Y"), levels);
    }

    /**
     * The stack trace: unexpected errors only (SEVERE, or a WARNING with an unchecked throwable: a defect, Vert.x's
     * blocked thread). An expected failure (checked, below SEVERE) and a refusal (no throwable) stay one line.
     */
    @Test
    void onlyUnexpectedErrorsCarryTheirStackTrace() throws IOException {
        IllegalStateException defect = new IllegalStateException("no layout", new ClosedChannelException());
        String severe = new TextLogFormatter().format(record(Level.SEVERE, "io.vertx.core.impl.ContextImpl",
                "Unhandled exception", defect));
        List<String> lines = severe.lines().toList();
        assertEquals("2026-11-26T14:20:30.000Z ERROR ContextImpl Unhandled exception | java.lang.IllegalStateException: "
                + "no layout; caused by java.nio.channels.ClosedChannelException", lines.get(0));
        assertTrue(lines.size() > 2, severe);
        assertTrue(lines.stream().skip(1).allMatch(l -> l.startsWith("\t")), severe);
        assertTrue(lines.get(1).startsWith("\tjava.lang.IllegalStateException: no layout"), severe);
        JsonNode json = JSON.readTree(new JsonLogFormatter().format(record(Level.SEVERE, "x", "m", defect)));
        assertTrue(json.get("thrown").get("stack").asText().contains("\tat io.rdmamon.cli.log.LogFormatterTest"),
                json.toString());
        assertEquals("java.lang.IllegalStateException: no layout; caused by java.nio.channels.ClosedChannelException",
                json.get("thrown").get("summary").asText());

        String blocked = new TextLogFormatter().format(record(Level.WARNING, "io.vertx.core.impl.BlockedThreadChecker",
                "Thread vert.x-eventloop-thread-2 has been blocked for 116 ms", new RuntimeException("Thread blocked")));
        assertTrue(blocked.lines().count() > 1, blocked);

        String expected = new TextLogFormatter().format(record(Level.WARNING, "io.rdmamon.agent.stream.AgentStreamer",
                "stream to ws://c:9470 lost", new ClosedChannelException()));
        assertEquals("2026-11-26T14:20:30.000Z WARN  AgentStreamer stream to ws://c:9470 lost | "
                + "java.nio.channels.ClosedChannelException\n", expected);
        assertEquals(1, new TextLogFormatter().format(record(Level.INFO, "x", "m", new IllegalStateException("i")))
                .lines().count());
    }

    @Test
    void formatNames() {
        assertEquals(LogFormat.TEXT, LogFormat.parse("text"));
        assertEquals(LogFormat.JSON, LogFormat.parse("JSON"));
        assertNull(LogFormat.parse("bogus"));
        assertNull(LogFormat.parse(null));
    }

    private static List<String> iterable(java.util.Iterator<String> names) {
        List<String> out = new java.util.ArrayList<>();
        names.forEachRemaining(out::add);
        return out;
    }
}
