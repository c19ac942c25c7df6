package io.rdmamon.nativeio.ethtool;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class StatsCountRaceTest {

    @ParameterizedTest(name = "asked {0}, kernel answered {1}, buffer {2} -> {3}")
    @CsvSource({
            // the count did not change
            "20,   20,   4136, ACCEPT",
            "1,    1,    4098, ACCEPT",
            // kernel with the bounds check: mismatch answered with 0 and nothing copied
            "20,   0,    4136, RETRY",
            // old kernel copied the current count, smaller or larger but within the slack
            "20,   12,   4136, RETRY",
            "20,   4136, 4136, RETRY",
            // old kernel copied more than the buffer holds
            "20,   4137, 4136, OVERFLOW",
            "20,   4294967295, 4136, OVERFLOW",
    })
    void verdict(long asked, long answered, long capacity, StatsCountRace.Verdict expected) {
        assertEquals(expected, StatsCountRace.verdict(asked, answered, capacity));
    }

    @ParameterizedTest(name = "asking {0} allocates {1}")
    @CsvSource({"0, 4096", "20, 4136", "3000, 10096"})
    void capacityIsTwiceTheCountPlusSlack(int asked, int expected) {
        assertEquals(expected, StatsCountRace.capacity(asked));
    }
}
