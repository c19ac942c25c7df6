package io.rdmamon.protocol.rates;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** How a counter of each width counts past its top: what the simulator counts with and the collector expects. */
class CounterWidthTest {

    @ParameterizedTest(name = "{0} bits, saturating {1}: {2} + {3} = {4}")
    @CsvSource({
            // PMA PortCounters stick at their maximum (port_xmit_wait = 4294967295)
            "32, true,  4294967000,           1000, 4294967295",
            "32, true,  4294967295,           1,    4294967295",
            "8,  true,  250,                  5,    255",
            "8,  true,  250,                  4,    254",
            // mlx5 Q counters wrap at 32 bits
            "32, false, 4294967295,           2,    1",
            "32, false, 7,                    3,    10",
            // u64: wraps modulo 2^64, values are unsigned in a long
            "64, false, 9223372036854775807,  2,    -9223372036854775807",
            "64, false, -1,                   1,    0"})
    void addCountsAsTheHardwareDoes(int bits, boolean saturating, long current, long delta, long expected) {
        CounterWidth width = saturating ? CounterWidth.saturating(bits) : CounterWidth.wrapping(bits);
        assertEquals(expected, width.add(current, delta));
    }

    @ParameterizedTest(name = "{0} bits, saturating {1}: clamp {2} = {3}")
    @CsvSource({
            "8,  true,  300,  255",
            "8,  true,  200,  200",
            "8,  false, 300,  44",
            "64, false, -1,   -1"})
    void clampBringsAnInitialValueIntoRange(int bits, boolean saturating, long value, long expected) {
        CounterWidth width = saturating ? CounterWidth.saturating(bits) : CounterWidth.wrapping(bits);
        assertEquals(expected, width.clamp(value));
    }
}
