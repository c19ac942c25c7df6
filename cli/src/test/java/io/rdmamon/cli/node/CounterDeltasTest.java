package io.rdmamon.cli.node;

import io.rdmamon.protocol.rates.CounterGroup;
import io.rdmamon.protocol.rates.CounterWidth;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.List;
import java.util.Map;
import java.util.Set;

import static io.rdmamon.protocol.testing.Samples.ordered;
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
        assertEquals(expected, CounterDeltas.perSecond(previous, current, seconds, CounterWidth.WRAPPING_64));
    }

    @Test
    void narrowCountersWrapOrSaturateByTheirKernelWidth() {
        // mlx5 Q counters are 32-bit and wrap: 2^32-6 → 4 is an increase of 10
        CounterWidth qCounter = CounterWidth.of(CounterGroup.HW_COUNTERS, "out_of_sequence");
        assertEquals(10.0, CounterDeltas.perSecond(4294967290L, 4L, 1.0, qCounter));
        // PMA port_xmit_wait is 32-bit and saturates: stuck at the maximum gives no rate, not a huge one
        CounterWidth xmitWait = CounterWidth.of(CounterGroup.PORT_COUNTERS, "port_xmit_wait");
        assertEquals(null, CounterDeltas.perSecond(4294967000L, 4294967295L, 1.0, xmitWait));
    }

    @Test
    void perfRatesKeepTheCurrentOrderAndDropCountersWithoutARate() {
        PerfCounters before = new PerfCounters(ordered("a", 1L, "b", 5L, "c", 0L), Set.of(), Map.of());
        PerfCounters after = new PerfCounters(ordered("c", 4L, "b", 1L, "a", 3L, "new", 9L), Set.of(), Map.of());
        Map<String, Double> rates = after.ratesSince(before, 2.0);
        assertEquals(List.of("c", "a"), List.copyOf(rates.keySet()));
        assertEquals(2.0, rates.get("c"));
    }
}
