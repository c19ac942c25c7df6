package io.rdmamon.agent.topology;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** {@link TopologyText#parseNumaNode}: what it reads, and a refusal that quotes the file's content shortened. */
class TopologyTextTest {
    static Stream<Arguments> numaNodes() {
        return Stream.of(
                Arguments.of("0", 0, null),
                Arguments.of("-1", null, null),
                Arguments.of(" 3 ", 3, null),
                Arguments.of("-2", null, "expected a NUMA node number or -1, got \"-2\""),
                Arguments.of("one", null, "expected a NUMA node number or -1, got \"one\""),
                Arguments.of("9".repeat(2_000), null,
                        "expected a NUMA node number or -1, got \"" + "9".repeat(80) + "\"…(2000 chars)"));
    }

    @ParameterizedTest(name = "{index}: {0}")
    @MethodSource("numaNodes")
    void numaNode(String text, Integer node, String refusal) {
        // -1 (the platform reports none) reads as null, as does nothing; a refusal says why
        if (refusal == null) {
            assertEquals(node, TopologyText.parseNumaNode(text));
        } else {
            assertEquals(refusal, assertThrows(IllegalArgumentException.class,
                    () -> TopologyText.parseNumaNode(text)).getMessage());
        }
    }
}
