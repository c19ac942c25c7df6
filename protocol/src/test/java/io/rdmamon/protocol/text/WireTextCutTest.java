package io.rdmamon.protocol.text;

import io.rdmamon.protocol.wire.TopologyWire;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** {@link WireText#cut}: a text longer than the limit loses its tail to an ellipsis, never half a surrogate pair. */
class WireTextCutTest {
    static Stream<Arguments> texts() {
        return Stream.of(
                Arguments.of(null, 5, null),
                Arguments.of("", 5, ""),
                Arguments.of("abcde", 5, "abcde"),
                Arguments.of("abcdef", 5, "abcd…"),
                Arguments.of("abc\uD83D\uDE00ef", 5, "abc…"),
                Arguments.of("x".repeat(2_000), TopologyWire.MAX_CHARS, "x".repeat(TopologyWire.MAX_CHARS - 1) + "…"));
    }

    @ParameterizedTest(name = "{index}: {0} to {1}")
    @MethodSource("texts")
    void cut(String text, int maxChars, String expected) {
        assertEquals(expected, WireText.cut(text, maxChars));
    }
}
