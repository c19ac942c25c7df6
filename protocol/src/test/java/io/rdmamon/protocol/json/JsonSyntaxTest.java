package io.rdmamon.protocol.json;

import com.fasterxml.jackson.core.JsonProcessingException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** {@link JsonSyntax#describe}: one line, with the line number when Jackson knows one and without when it does not. */
class JsonSyntaxTest {
    static Stream<Arguments> documents() {
        return Stream.of(
                Arguments.of("{\"a\": 1,\n \"b\": }", "Unexpected character ('}' (code 125)): expected a valid value "
                        + "(JSON String, Number, Array, Object or token 'null', 'true' or 'false') (line 2)"),
                Arguments.of("{\"a\": [1, 2", "Unexpected end-of-input: expected close marker for Array (line 1)"),
                Arguments.of("[".repeat(5_000), "Document nesting depth (1001) exceeds the maximum allowed (1000, from "
                        + "`StreamReadConstraints.getMaxNestingDepth()`)"),
                Arguments.of("7".repeat(2_000), "Number value length (2000) exceeds the maximum allowed (1000, from "
                        + "`StreamReadConstraints.getMaxNumberLength()`)"));
    }

    @ParameterizedTest(name = "{index}: {1}")
    @MethodSource("documents")
    void describesTheRefusalOnOneLine(String text, String expected) {
        JsonProcessingException e = assertThrows(JsonProcessingException.class, () -> StrictJson.mapper().readTree(text));
        assertEquals(expected, JsonSyntax.describe(e));
    }
}
