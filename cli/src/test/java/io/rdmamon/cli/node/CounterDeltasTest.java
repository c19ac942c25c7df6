package io.rdmamon.cli.node;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static io.rdmamon.cli.node.Models.ordered;
import static org.junit.jupiter.api.Assertions.assertEquals;

class CounterDeltasTest {

    @ParameterizedTest
    @CsvSource(nullValues = "NULL", value = {
            // previous, current, seconds, per second
            "10, 20, 2.0, 5.0",
            "10, 10, 1.0, 0.0",
            "20, 10, 1.0, NULL",        // went backwards: reset, no rate
            "NULL, 10, 1.0, NULL",
            "10, NULL, 1.0, NULL",
            // unsigned 64-bit: 2^63 (printed signed) is above 2^63 - 1
            "9223372036854775807, -9223372036854775808, 1.0, 1.0",
            "0, -1, 1.0, 1.8446744073709552E19",
            "-2, 5, 1.0, NULL"})
    void perSecondIsAnUnsignedDeltaOverTime(Long previous, Long current, double seconds, Double expected) {
        assertEquals(expected, CounterDeltas.perSecond(previous, current, seconds));
    }

    @Test
    void mapsKeepTheCurrentOrderAndDropCountersWithoutARate() {
        assertEquals(java.util.List.of("c", "a"), java.util.List.copyOf(CounterDeltas.perSecond(
                ordered("a", 1L, "b", 5L, "c", 0L),
                ordered("c", 4L, "b", 1L, "a", 3L, "new", 9L), 2.0).keySet()));
        assertEquals(2.0, CounterDeltas.perSecond(ordered("c", 0L), ordered("c", 4L), 2.0).get("c"));
    }
}
