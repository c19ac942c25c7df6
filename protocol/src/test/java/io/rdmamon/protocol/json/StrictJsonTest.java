package io.rdmamon.protocol.json;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class StrictJsonTest {
    /** One object holding a value of every JSON type, read below under every getter. */
    private static final String EVERY_TYPE = """
            {"s": "text", "i": 7, "big": 2147483648, "huge": 9223372036854775808, "f": 1.5, "b": true,
             "o": {"x": 1}, "a": [1, 2], "n": null, "d": "30s"}""";

    private static StrictJson read(String json, String path) {
        try {
            return StrictJson.of(StrictJson.mapper().readTree(json), path);
        } catch (JsonProcessingException e) {
            throw new AssertionError(e);
        }
    }

    static Stream<Arguments> typeErrors() {
        return Stream.of(
                error("string of a number", r -> r.string("i"), "frame.i: expected a string, got number"),
                error("string of an object", r -> r.string("o"), "frame.o: expected a string, got object"),
                error("integer of a string", r -> r.integer("s"), "frame.s: expected a 32-bit integer, got string"),
                error("integer of a fraction", r -> r.integer("f"), "frame.f: expected a 32-bit integer, got number"),
                error("integer beyond 32 bits", r -> r.integer("big"), "frame.big: expected a 32-bit integer, got number"),
                error("integer of a boolean", r -> r.integer("b"), "frame.b: expected a 32-bit integer, got boolean"),
                error("long of a string", r -> r.longValue("s"), "frame.s: expected a 64-bit integer, got string"),
                error("long beyond 64 bits", r -> r.longValue("huge"), "frame.huge: expected a 64-bit integer, got number"),
                error("long of a fraction", r -> r.longValue("f"), "frame.f: expected a 64-bit integer, got number"),
                error("number of a string", r -> r.number("s"), "frame.s: expected a number, got string"),
                error("number of an array", r -> r.number("a"), "frame.a: expected a number, got array"),
                error("boolean of a string", r -> r.bool("s"), "frame.s: expected true or false, got string"),
                error("boolean of a number", r -> r.bool("i"), "frame.i: expected true or false, got number"),
                error("duration of a number", r -> r.duration("i"),
                        "frame.i: expected a duration string like \"500ms\", \"30s\", \"10m\" or \"1h\", got number"),
                error("duration of other text", r -> r.duration("s"),
                        "frame.s: expected a duration like 500ms, 30s, 10m or 1h (a bare number is seconds), got 'text'"),
                error("object of an array", r -> r.object("a"), "frame.a: expected an object, got array"),
                error("object of a string", r -> r.optObject("s"), "frame.s: expected an object, got string"),
                error("array of an object", r -> r.array("o"), "frame.o: expected an array, got object"),
                error("objects of numbers", r -> r.objects("a"), "frame.a[0]: expected an object, got number"),
                error("strings of numbers", r -> r.strings("a"), "frame.a[0]: expected a string, got number"),
                error("optional string of a number", r -> r.optString("i"), "frame.i: expected a string, got number"),
                error("optional integer of a string", r -> r.optInteger("s"), "frame.s: expected a 32-bit integer, got string"),
                error("optional long of a string", r -> r.optLong("s"), "frame.s: expected a 64-bit integer, got string"),
                error("integer with a fallback of a string", r -> r.integer("s", 3),
                        "frame.s: expected a 32-bit integer, got string"),
                error("number with a fallback of a string", r -> r.number("s", 3),
                        "frame.s: expected a number, got string"),
                error("boolean with a fallback of a number", r -> r.bool("i", false),
                        "frame.i: expected true or false, got number"),
                error("duration with a fallback of a number", r -> r.duration("i", Duration.ZERO),
                        "frame.i: expected a duration string like"));
    }

    private static Arguments error(String name, Function<StrictJson, Object> read, String message) {
        return Arguments.of(name, read, message);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("typeErrors")
    void aValueOfTheWrongTypeIsNamedByItsPath(String name, Function<StrictJson, Object> get, String message) {
        StrictJsonException e = assertThrows(StrictJsonException.class, () -> get.apply(read(EVERY_TYPE, "frame")));
        assertTrue(e.getMessage().startsWith(message), e.getMessage());
        assertTrue(e.getMessage().startsWith(e.path() + ": "), e.path());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"absent, nope", "null, n"})
    void aRequiredKeyThatIsAbsentOrNullIsMissing(String name, String key) {
        StrictJson json = read(EVERY_TYPE, "frame");
        for (Function<StrictJson, Object> get : List.<Function<StrictJson, Object>>of(r -> r.string(key),
                r -> r.integer(key), r -> r.longValue(key), r -> r.number(key), r -> r.bool(key), r -> r.duration(key),
                r -> r.object(key), r -> r.array(key), r -> r.objects(key), r -> r.strings(key), r -> r.integers(key))) {
            StrictJsonException e = assertThrows(StrictJsonException.class, () -> get.apply(json));
            assertEquals("frame." + key + ": missing", e.getMessage());
            assertEquals("frame." + key, e.path());
        }
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"absent, nope", "null, n"})
    void anOptionalKeyThatIsAbsentOrNullIsNotGiven(String name, String key) {
        StrictJson json = read(EVERY_TYPE, "frame");
        assertEquals(false, json.has(key));
        assertNull(json.optString(key));
        assertNull(json.optInteger(key));
        assertNull(json.optLong(key));
        assertNull(json.optObject(key));
        assertEquals(3, json.integer(key, 3));
        assertEquals(0.5, json.number(key, 0.5));
        assertEquals(true, json.bool(key, true));
        assertEquals(Duration.ofSeconds(9), json.duration(key, Duration.ofSeconds(9)));
    }

    @Test
    void wellTypedValuesAreRead() {
        StrictJson json = read(EVERY_TYPE, "frame");
        assertEquals("text", json.string("s"));
        assertEquals(7, json.integer("i"));
        assertEquals(2147483648L, json.longValue("big"));
        assertEquals(7L, json.longValue("i"));
        assertEquals(1.5, json.number("f"));
        assertEquals(7.0, json.number("i"), "an integer is a number");
        assertEquals(true, json.bool("b"));
        assertEquals(Duration.ofSeconds(30), json.duration("d"));
        assertEquals(List.of(1, 2), json.integers("a"));
        assertEquals(1, json.object("o").integer("x"));
        assertEquals(List.of("s", "i", "big", "huge", "f", "b", "o", "a", "n", "d"), json.keys());
    }

    @Test
    void pathsNameArrayElementsAndNestedObjectsFromTheRoot() {
        StrictJson hello = read("""
                {"layout": {"devices": [{}, {}, {"ports": [{"port": "1"}]}]}}""", "hello");
        StrictJson port = hello.object("layout").objects("devices").get(2).objects("ports").get(0);
        assertEquals("hello.layout.devices[2].ports[0]", port.path());
        assertEquals("hello.layout.devices[2].ports[0].port: expected a 32-bit integer, got string",
                assertThrows(StrictJsonException.class, () -> port.integer("port")).getMessage());
        StrictJsonException element = assertThrows(StrictJsonException.class,
                () -> read("{\"tags\": [\"a\", 2]}", "").strings("tags"));
        assertEquals("tags[1]: expected a string, got number", element.getMessage());
        assertEquals("tags[1]", element.path());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "at the root           | {\"lissten\": 1}                        | ''     | lissten",
            "in a section          | {\"ingest\": {\"maxPorts\": 4}}          | ''     | ingest.maxPorts",
            "in an array's object  | {\"tokens\": [{}, {\"nodes\": \"x\"}]}   | ''     | tokens[1].nodes",
            "under a named root    | {\"spec\": {\"colour\": 1}}             | frame  | frame.spec.colour"})
    void unknownKeysAreNamedWithTheirPathAtAnyDepth(String name, String json, String root, String unknown) {
        StrictJson reader = read(json, root);
        Set<String> known = Set.of("known", "also");
        StrictJsonException e = assertThrows(StrictJsonException.class, () -> {
            reader.requireKnownKeys(Set.of("ingest", "tokens", "spec"));
            for (String section : List.of("ingest", "spec")) {
                if (reader.has(section)) {
                    reader.object(section).requireKnownKeys(known);
                }
            }
            if (reader.has("tokens")) {
                reader.objects("tokens").forEach(token -> token.requireKnownKeys(known));
            }
        });
        assertTrue(e.getMessage().startsWith("unknown key '" + unknown + "' (known: ["), e.getMessage());
        assertEquals(unknown, e.path());
    }

    @Test
    void anUnknownKeyIsQuotedPrintablyAndBounded() {
        StrictJson json = read("{\"a\\nforged log line" + "x".repeat(100) + "\": 1}", "");
        String message = assertThrows(StrictJsonException.class, () -> json.requireKnownKeys(Set.of("b"))).getMessage();
        assertTrue(message.startsWith("unknown key 'a\\u000aforged log line"), message);
        assertTrue(message.length() < 150, message);
    }

    @Test
    void knownKeysPassAndTheListIsSortedInTheRefusal() {
        StrictJson json = read("{\"b\": 1, \"a\": 2}", "s");
        assertEquals(json, json.requireKnownKeys(Set.of("a", "b", "c")));
        assertEquals("unknown key 's.b' (known: [a, c])",
                assertThrows(StrictJsonException.class, () -> json.requireKnownKeys(Set.of("c", "a"))).getMessage());
    }

    @Test
    void aDocumentThatIsNotAnObjectIsRefused() throws JsonProcessingException {
        JsonNode array = StrictJson.mapper().readTree("[1]");
        assertEquals("document: expected an object, got array",
                assertThrows(StrictJsonException.class, () -> StrictJson.of(array, "")).getMessage());
        assertEquals("frame: expected an object, got array",
                assertThrows(StrictJsonException.class, () -> StrictJson.of(array, "frame")).getMessage());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "500ms | PT0.5S", "30s | PT30S", "10m | PT10M", "1h | PT1H", "600 | PT10M", "' 5M ' | PT5M",
            "0 | PT0S", "2H | PT2H", "1500MS | PT1.5S"})
    void durationsTakeAUnitOrAreSeconds(String text, String expected) {
        assertEquals(Duration.parse(expected), StrictJson.parseDuration(text, "expireAfter"));
    }

    @ParameterizedTest(name = "''{0}''")
    @CsvSource(delimiter = '|', value = {
            "soon", "''", "-1s", "1.5s", "5 s", "5d", "s", "1m30s", "PT5M"})
    void otherDurationTextsAreRefusedNamingTheSetting(String text) {
        StrictJsonException e = assertThrows(StrictJsonException.class,
                () -> StrictJson.parseDuration(text, "RDMAMON_EXPIRE_AFTER"));
        assertEquals("RDMAMON_EXPIRE_AFTER: expected a duration like 500ms, 30s, 10m or 1h (a bare number is seconds), got '"
                + text + "'", e.getMessage());
        assertEquals("RDMAMON_EXPIRE_AFTER", e.path());
    }

    /** Regression: these threw NumberFormatException and ArithmeticException out of the config loader. */
    @ParameterizedTest
    @CsvSource({"99999999999999999999s", "9223372036854775807h", "9223372036854775807m"})
    void durationsBeyondJavasRangeAreRefusedNotThrownAsOverflow(String text) {
        StrictJsonException e = assertThrows(StrictJsonException.class, () -> StrictJson.parseDuration(text, "ingest.idleTimeout"));
        assertEquals("ingest.idleTimeout: duration '" + text + "' is beyond the largest one Java holds", e.getMessage());
    }

    @Test
    void theMapperRefusesRepeatedKeysAndTrailingTokens() {
        assertThrows(JsonProcessingException.class, () -> StrictJson.mapper().readTree("{\"a\": 1, \"a\": 2}"));
        assertThrows(JsonProcessingException.class, () -> StrictJson.mapper().readTree("{\"a\": 1} {}"));
    }
}
