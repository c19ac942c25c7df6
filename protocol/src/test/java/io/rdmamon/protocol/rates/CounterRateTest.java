package io.rdmamon.protocol.rates;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.stream.Stream;

import static io.rdmamon.protocol.rates.CounterRate.Status.NO_INTERVAL;
import static io.rdmamon.protocol.rates.CounterRate.Status.OK;
import static io.rdmamon.protocol.rates.CounterRate.Status.RESET;
import static io.rdmamon.protocol.rates.CounterRate.Status.SATURATED;
import static io.rdmamon.protocol.rates.CounterRate.Status.WRAPPED;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CounterRateTest {
    private static final CounterWidth Q32 = CounterWidth.of(CounterGroup.HW_COUNTERS, "out_of_sequence");
    private static final CounterWidth U64 = CounterWidth.of(CounterGroup.PORT_COUNTERS, "port_rcv_data");
    private static final CounterWidth XMIT_WAIT = CounterWidth.of(CounterGroup.PORT_COUNTERS, "port_xmit_wait");
    private static final CounterWidth SYMBOL_ERROR = CounterWidth.of(CounterGroup.PORT_COUNTERS, "symbol_error");

    static Stream<Arguments> cases() {
        return Stream.of(
                Arguments.of("plain increase", 100L, 300L, 2000L, U64, OK, 100.0),
                Arguments.of("no change", 5L, 5L, 1000L, U64, OK, 0.0),
                Arguments.of("u64 above Long.MAX", Long.MAX_VALUE, Long.MIN_VALUE + 9, 1000L, U64, OK, 10.0),
                Arguments.of("64-bit went down: reset", 1_000_000L, 10L, 1000L, U64, RESET, Double.NaN),
                Arguments.of("32-bit Q counter wraps", 4_294_967_290L, 4L, 1000L, Q32, WRAPPED, 10.0),
                Arguments.of("32-bit Q counter cleared", 1000L, 10L, 1000L, Q32, RESET, Double.NaN),
                Arguments.of("PMA xmit_wait saturated", 5L, 4_294_967_295L, 1000L, XMIT_WAIT, SATURATED, Double.NaN),
                Arguments.of("PMA 16-bit saturated", 65_000L, 65_535L, 1000L, SYMBOL_ERROR, SATURATED, Double.NaN),
                Arguments.of("PMA counter cleared (perfquery -x)", 70L, 0L, 1000L, SYMBOL_ERROR, RESET, Double.NaN),
                Arguments.of("same instant", 1L, 2L, 0L, U64, NO_INTERVAL, Double.NaN),
                Arguments.of("reads out of order", 1L, 2L, -1000L, U64, NO_INTERVAL, Double.NaN));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void rates(String name, long previous, long current, long elapsedMillis, CounterWidth width,
               CounterRate.Status status, double perSecond) {
        CounterRate rate = CounterRate.between(previous, current, elapsedMillis, width);
        assertEquals(status, rate.status());
        assertEquals(status == OK || status == WRAPPED, rate.hasRate());
        if (Double.isNaN(perSecond)) {
            assertTrue(Double.isNaN(rate.perSecond()));
        } else {
            assertEquals(perSecond, rate.perSecond(), 1e-9);
        }
    }

    static Stream<Arguments> widths() {
        return Stream.of(
                Arguments.of(CounterGroup.PORT_COUNTERS, "VL15_dropped", CounterWidth.saturating(16)),
                Arguments.of(CounterGroup.PORT_COUNTERS, "local_link_integrity_errors", CounterWidth.saturating(4)),
                Arguments.of(CounterGroup.PORT_COUNTERS, "port_xmit_packets", CounterWidth.wrapping(64)),
                Arguments.of(CounterGroup.HW_COUNTERS, "rx_read_requests", CounterWidth.wrapping(32)),
                Arguments.of(CounterGroup.HW_COUNTERS, "np_cnp_sent", CounterWidth.wrapping(64)),
                Arguments.of(CounterGroup.HW_COUNTERS, "tx_bytes_cnt", CounterWidth.wrapping(64)),
                Arguments.of(CounterGroup.ETHTOOL, "rx_out_of_buffer", CounterWidth.wrapping(32)),
                Arguments.of(CounterGroup.ETHTOOL, "rx_prio3_bytes", CounterWidth.wrapping(64)));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("widths")
    void widthsFollowTheKernelSources(CounterGroup group, String name, CounterWidth expected) {
        assertEquals(expected, CounterWidth.of(group, name));
    }

    @org.junit.jupiter.api.Test
    void unsignedConversion() {
        assertEquals(18446744073709551615.0, CounterRate.unsignedToDouble(-1L));
        assertEquals(9223372036854775808.0, CounterRate.unsignedToDouble(Long.MIN_VALUE));
        assertEquals(42.0, CounterRate.unsignedToDouble(42L));
    }
}
