package io.rdmamon.protocol.rates;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class WindowSummaryTest {

    static Stream<Arguments> windows() {
        return Stream.of(
                // capacity, values added, expected max, avg, min, count
                Arguments.of(5, new double[] {7}, 7, 7, 7, 1),
                Arguments.of(5, new double[] {1, 2, 3, 4}, 4, 2.5, 1, 4),
                Arguments.of(3, new double[] {1, 2, 3}, 3, 2, 1, 3),
                // the oldest values (100 and 0) are evicted once the window is full
                Arguments.of(3, new double[] {100, 0, 5, 6, 7}, 7, 6, 5, 3),
                Arguments.of(1, new double[] {9, 4}, 4, 4, 4, 1),
                Arguments.of(4, new double[] {0, 0, 0}, 0, 0, 0, 3),
                Arguments.of(2, new double[] {1.25e10, 1.5e10}, 1.5e10, 1.375e10, 1.25e10, 2));
    }

    @ParameterizedTest
    @MethodSource("windows")
    void summarisesTheLastCapacityValues(int capacity, double[] added, double max, double avg, double min, int count) {
        WindowSummary window = new WindowSummary(capacity);
        for (double v : added) {
            window.add(v);
        }
        WindowSummary.Summary s = window.summary().orElseThrow();
        assertEquals(new WindowSummary.Summary(max, avg, min, count), s);
        assertEquals(count, window.count());
    }

    @Test
    void emptyWindowHasNoSummary() {
        assertTrue(new WindowSummary(3).summary().isEmpty());
    }

    @Test
    void rejectsNonFiniteValuesAndBadCapacity() {
        WindowSummary window = new WindowSummary(2);
        assertThrows(IllegalArgumentException.class, () -> window.add(Double.NaN));
        assertThrows(IllegalArgumentException.class, () -> window.add(Double.POSITIVE_INFINITY));
        assertEquals(0, window.count());
        assertThrows(IllegalArgumentException.class, () -> new WindowSummary(0));
    }
}
