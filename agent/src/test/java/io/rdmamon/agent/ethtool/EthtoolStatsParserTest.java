package io.rdmamon.agent.ethtool;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class EthtoolStatsParserTest {

    @Test
    void parsesEthtoolTextKeepingDriverOrder() {
        String text = """
                # ethtool -S eth2
                NIC statistics:
                     rx_packets: 10
                     tx_packets: 18446744073709551615
                     [0]: rx_ucast_packets: 7
                     port.rx_dropped: 3
                """;
        LinkedHashMap<String, Long> stats = EthtoolStatsParser.parseText(text);
        assertEquals(List.of("rx_packets", "tx_packets", "[0]: rx_ucast_packets", "port.rx_dropped"),
                List.copyOf(stats.keySet()));
        assertEquals(10L, stats.get("rx_packets"));
        assertEquals(-1L, stats.get("tx_packets"), "u64 max is kept bit for bit");
        assertEquals(7L, stats.get("[0]: rx_ucast_packets"));
    }

    @Test
    void aNamePrintedTwiceKeepsItsFirstValue() {
        Map<String, Long> stats = EthtoolStatsParser.parseText("NIC statistics:\n  a: 1\n  a: 2\n");
        assertEquals(Map.of("a", 1L), stats);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "''                                        | no \"NIC statistics:\" line (empty or not ethtool -S output)",
            "no stats available                         | line 1: expected \"NIC statistics:\", got \"no stats available\"",
            "'NIC statistics:\n  rx_packets 10'         | line 2: expected \"<name>: <value>\", got \"rx_packets 10\"",
            "'NIC statistics:\n  rx_packets: ten'       | line 2: value of rx_packets is not an unsigned 64-bit number: \"ten\"",
            "'NIC statistics:\n  rx_packets: -1'        | line 2: value of rx_packets is not an unsigned 64-bit number: \"-1\"",
            "'NIC statistics:\n  rx_packets:'           | line 2: value of rx_packets is not an unsigned 64-bit number: \"\""})
    void garbageNamesTheLine(String text, String message) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> EthtoolStatsParser.parseText(text.replace("\\n", "\n")));
        assertEquals(message, e.getMessage());
    }

    @Test
    void interfaceNamesThatCouldLeaveTheHostRootAreRefused() {
        for (String bad : new String[] {"", "..", ".", "a/b", "../etc", "eth 0", "eth0:1", "abcdefghijklmnop"}) {
            Exception e = assertThrows(java.io.IOException.class, () -> InterfaceNames.requireValid(bad), bad);
            assertTrue(e.getMessage().contains("\"" + bad + "\""), e.getMessage());
        }
    }

    /** Captures the byte parser takes: the result must be the text parser's, in the same order. */
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "'NIC statistics:\n     rx_packets: 10\n     tx_packets: 18\n'",
            "'# ethtool -S eth3\n#\nNIC statistics:\n  rx_prio7_pause: 3\n'",
            "'NIC statistics:\\r\n\\trx_bytes:\\t 42 \\r\n\\r\n  tx_bytes: 0\\r\n'",
            "'  NIC statistics:  \n  [0]: rx_ucast_packets: 7\n  port.rx_dropped: 3\n'",
            "'NIC statistics:\n  ::x: 999999999999999999\n  # not a comment after the header: 5\n'",
            "'NIC statistics:\n  rx_packets: 000000000000000012'",
            "'NIC statistics:'"})
    void usualCapturesParseFromBytesAsFromText(String capture) {
        // carriage returns and tabs are written escaped: the CSV reader would normalise a real CR LF
        String text = capture.replace("\\n", "\n").replace("\\r", "\r").replace("\\t", "\t");
        LinkedHashMap<String, Long> fromText = EthtoolStatsParser.parseText(text);
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        RawStatistics first = EthtoolStatsParser.parseUsualAscii(bytes, List.of());
        assertEquals(List.copyOf(fromText.entrySet()), List.copyOf(first.toMap().entrySet()));
        RawStatistics again = EthtoolStatsParser.parseUsualAscii(bytes, first.names());
        assertSame(first.names(), again.names(), "the same names: the same list");
        assertEquals(List.copyOf(fromText.entrySet()), List.copyOf(again.toMap().entrySet()));
    }

    /** Anything else is left to the text parser (null), so that its values and its refusals stay the only ones. */
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "''",
            "'no stats available'",
            "'NIC statistics:\n  rx_packets 10'",
            "'NIC statistics:\n  rx_packets: ten'",
            "'NIC statistics:\n  rx_packets:'",
            "'NIC statistics:\n  rx_packets: +5'",
            "'NIC statistics:\n  rx_packets: 1 2'",
            "'NIC statistics:\n  tx_packets: 18446744073709551615'",
            "'NIC statistics:\n  tx_packets: 1234567890123456789'",
            "'NIC statistics:\n  r\u00e9seau_packets: 4'",
            "'NIC statistics:\n  rx\u000b_packets: 4'",
            "'NIC statistics:\n  rx_packets: 4\u2003'",
            "'# ethtool -S eth3'"})
    void unusualCapturesAreLeftToTheTextParser(String capture) {
        String text = capture.replace("\\n", "\n");
        assertNull(EthtoolStatsParser.parseUsualAscii(text.getBytes(StandardCharsets.UTF_8), List.of()), text);
    }

    /** Names unlike the known ones (a name more, fewer, other, or one printed twice) make a new list, as parseText would. */
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "'NIC statistics:\n  rx_bytes: 1\n  rx_prio3_pause: 2\n  tx_bytes: 3'",
            "'NIC statistics:\n  rx_bytes: 1'",
            "'NIC statistics:'",
            "'NIC statistics:\n  rx_bytes: 1\n  tx_packets: 3'",
            "'NIC statistics:\n  rx_bytes: 1\n  rx_bytes: 3'",
            "'NIC statistics:\n  rx_bytes: 1\n  tx_bytes: 3\n  rx_bytes: 4'"})
    void namesUnlikeTheKnownOnesAreReadAfresh(String capture) {
        String text = capture.replace("\\n", "\n");
        List<String> known = EthtoolStatsParser.parseUsualAscii("NIC statistics:\n  rx_bytes: 8\n  tx_bytes: 9\n"
                .getBytes(StandardCharsets.UTF_8), List.of()).names();
        RawStatistics stats = EthtoolStatsParser.parseUsualAscii(text.getBytes(StandardCharsets.UTF_8), known);
        assertNotSame(known, stats.names());
        assertEquals(List.copyOf(EthtoolStatsParser.parseText(text).entrySet()), List.copyOf(stats.toMap().entrySet()));
        assertEquals(List.of("rx_bytes", "tx_bytes"), known, "the known list is left as it was");
    }
}
