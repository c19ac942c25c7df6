package io.rdmamon.cli.node;

import io.rdmamon.protocol.model.CounterUnits;
import io.rdmamon.protocol.rates.CounterGroup;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

import static org.junit.jupiter.api.Assertions.assertEquals;

class MlnxPerfFormatTest {
    /** mlnx_perf itself only ever sees ethtool names. */
    private static final Predicate<String> ETHTOOL_BYTES = name -> CounterUnits.isByteCounter(CounterGroup.ETHTOOL, name);

    @ParameterizedTest
    @CsvSource({
            "0, 0",
            "999, 999",
            "1000, '1,000'",
            "12358253600, '12,358,253,600'",
            "1234567.25, '1,234,567.25'",
            "12.5, 12.50",
            // mlnx_perf's quirk: int(frac*100) without zero padding, so 3 hundredths print as .3
            "12.03125, 12.3",
            // below a hundredth the fraction disappears
            "7.009, 7"})
    void thousMatchesMlnxPerf(double value, String expected) {
        assertEquals(expected, MlnxPerfFormat.thous(value));
    }

    /** Rates of the published mlnx_perf sample (docs/reference/ethtool-and-verbs.md §2): the same lines must come out.
     * */
    @Test
    void reproducesAPublishedMlnxPerfInterval() {
        Map<String, Double> rates = new LinkedHashMap<>();
        rates.put("rx_vport_unicast_packets", 11_614_900.0);
        rates.put("rx_vport_unicast_bytes", 12_358_253_600.0);
        rates.put("rx_packets_phy", 11_614_847.0);
        rates.put("rx_bytes_phy", 12_404_657_664.0);
        rates.put("rx_1024_to_1518_bytes_phy", 11_614_936.0);
        rates.put("rx_prio0_bytes", 12_404_738_832.0);
        rates.put("rx_prio0_packets", 11_614_923.0);
        List<String> lines = MlnxPerfFormat.interval(rates, ETHTOOL_BYTES);
        assertEquals(List.of(
                "  rx_vport_unicast_packets: 11,614,900",
                "    rx_vport_unicast_bytes: 12,358,253,600 Bps   = 98,866.2 Mbps",
                "            rx_packets_phy: 11,614,847",
                "              rx_bytes_phy: 12,404,657,664 Bps   = 99,237.26 Mbps",
                " rx_1024_to_1518_bytes_phy: 11,614,936",
                "            rx_prio0_bytes: 12,404,738,832 Bps   = 99,237.91 Mbps",
                "          rx_prio0_packets: 11,614,923",
                "--------").stream().map(String::strip).toList(), lines.stream().map(String::strip).toList());
        // the sample is quoted with its indentation trimmed: "%30s" right-aligns keys in 30 columns,
        // and "%-20s" pads the Mbps column too, exactly as Python's % operator does
        assertEquals("        rx_vport_unicast_bytes: 12,358,253,600 Bps   = 98,866.2 Mbps       ", lines.get(1));
    }

    @Test
    void perPriorityLinesShareTheTransmitTotal() {
        Map<String, Double> rates = new LinkedHashMap<>();
        rates.put("tx_prio0_bytes", 250_000.0);
        rates.put("tx_prio0_packets", 100.0);
        rates.put("tx_prio3_bytes", 750_000.0);
        rates.put("tx_prio3_packets", 300.0);
        List<String> lines = MlnxPerfFormat.interval(rates, ETHTOOL_BYTES);
        assertEquals(List.of(
                "                tx_prio0_bytes: 250,000 Bps          = 2 Mbps",
                "              tx_prio0_packets: 100",
                "                tx_prio3_bytes: 750,000 Bps          = 6 Mbps",
                "              tx_prio3_packets: 300",
                "                          UP 0: 2                    Mbps = 25.00%",
                "                          UP 3: 6                    Mbps = 75.00%",
                "                          UP 0: 100                  Tran/sec = 25.00%",
                "                          UP 3: 300                  Tran/sec = 75.00%",
                "--------"), lines.stream().map(String::stripTrailing).toList());
    }

    @Test
    void onlyCountersThatMovedUpArePrinted() {
        Map<String, Double> rates = new LinkedHashMap<>();
        rates.put("rx_packets", 0.0);
        rates.put("timestamp", 1000.0);
        rates.put("rx_bytes", 5_000_000.0);
        // mlnx_perf prints the UP block and the separator only after a non-byte counter moved
        assertEquals(List.of("                      rx_bytes: 5,000,000 Bps        = 40 Mbps"),
                MlnxPerfFormat.interval(rates, ETHTOOL_BYTES).stream()
                        .map(String::stripTrailing).toList());
        assertEquals(List.of(), MlnxPerfFormat.interval(Map.of("rx_packets", 0.0), n -> false));
    }

    @Test
    void byteCountersPrintThroughTheGivenPredicate() {
        // perf -d: the PMA data counters are bytes although their names do not say so
        List<String> lines = MlnxPerfFormat.interval(Map.of("port_rcv_data", 1_000_000.0), Set.of("port_rcv_data")::contains);
        assertEquals("                 port_rcv_data: 1,000,000 Bps        = 8 Mbps", lines.get(0).stripTrailing());
    }

    @ParameterizedTest
    @CsvSource(nullValues = "NULL", value = {
            // previous timestamp, current timestamp, measured seconds, expected seconds
            "1000, 3000, 1.9, 2.0",
            "NULL, 3000, 1.9, 1.9",
            "3000, 3000, 1.9, 1.9",
            "NULL, NULL, 0.5, 0.5"})
    void intervalFromDriverTimestampWhenItAdvanced(Long before, Long after, double measured, double expected) {
        Map<String, Long> previous = new LinkedHashMap<>();
        Map<String, Long> current = new LinkedHashMap<>();
        if (before != null) {
            previous.put("timestamp", before);
        }
        if (after != null) {
            current.put("timestamp", after);
        }
        assertEquals(expected, MlnxPerfFormat.intervalSeconds(previous, current, measured));
    }
}
