package io.rdmamon.protocol.wire;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;

class OptionalFramesTest {

    static Stream<Arguments> headers() {
        return Stream.of(
                Arguments.of(null, Set.of()),
                Arguments.of("", Set.of()),
                Arguments.of("fabric", Set.of("fabric")),
                Arguments.of("fabric, kernel-events", Set.of("fabric", "kernel-events")),
                Arguments.of(" Fabric ,,KERNEL-EVENTS ,", Set.of("fabric", "kernel-events")),
                Arguments.of("x".repeat(65) + ",fabric", Set.of("fabric")));
    }

    @ParameterizedTest
    @MethodSource("headers")
    void parsesLeniently(String header, Set<String> expected) {
        assertEquals(expected, OptionalFrames.parse(header));
    }

    @Test
    void headerRoundTrips() {
        String header = OptionalFrames.header(List.of("fabric", "kernel-events"));
        assertEquals("fabric, kernel-events", header);
        assertEquals(Set.of("fabric", "kernel-events"), OptionalFrames.parse(header));
    }
}
