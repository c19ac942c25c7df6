package io.rdmamon.agent.ethtool;

import io.rdmamon.protocol.model.EthtoolStats;
import io.rdmamon.protocol.model.PriorityCounters;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
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
    void pfcPrioritiesAreLearnedFromWhichPauseCountersExist() {
        Map<String, Long> raw = new LinkedHashMap<>();
        for (int prio = 0; prio < 8; prio++) {
            raw.put("rx_prio" + prio + "_bytes", 100L + prio);
            raw.put("rx_prio" + prio + "_packets", 10L + prio);
            raw.put("rx_prio" + prio + "_discards", 0L);
            raw.put("tx_prio" + prio + "_bytes", 200L + prio);
            raw.put("tx_prio" + prio + "_packets", 20L + prio);
        }
        raw.put("rx_prio6_pause", 5L);
        raw.put("rx_prio6_pause_duration", 50L);
        raw.put("tx_prio6_pause", 6L);
        raw.put("tx_prio6_pause_duration", 60L);
        raw.put("rx_prio6_pause_transition", 3L);
        raw.put("tx_prio1_pause", 1L);
        raw.put("rx_global_pause", 9L);

        EthtoolStats stats = EthtoolStatsParser.toStats("eth2", raw);

        assertEquals(Set.of(1, 6), stats.pfcEnabledPriorities());
        assertEquals(8, stats.priorities().size());
        assertEquals(new PriorityCounters(6, 106L, 16L, 0L, 206L, 26L, 5L, 50L, 6L, 60L, 3L), stats.priorities().get(6));
        assertEquals(new PriorityCounters(0, 100L, 10L, 0L, 200L, 20L, null, null, null, null, null), stats.priorities().get(0));
        assertEquals(new PriorityCounters(1, 101L, 11L, 0L, 201L, 21L, null, null, 1L, null, null), stats.priorities().get(1));
        assertEquals(raw, stats.raw());
        assertTrue(stats.vportRdma().isEmpty());
        assertNull(stats.pauseStormWarningEvents());
        assertNull(stats.pauseStormErrorEvents());
    }

    @Test
    void prioritiesWithoutAnyCounterAreLeftOutAndVportRdmaKeepsKernelOrder() {
        Map<String, Long> raw = new LinkedHashMap<>();
        raw.put("tx_vport_rdma_unicast_bytes", 4L);
        raw.put("rx_vport_rdma_unicast_packets", 1L);
        raw.put("rx_vport_unicast_bytes", 99L);
        raw.put("rx_prio4_bytes", 7L);
        raw.put("tx_pause_storm_warning_events", 2L);
        raw.put("tx_pause_storm_error_events", 0L);

        EthtoolStats stats = EthtoolStatsParser.toStats("eth3", raw);

        assertEquals(List.of(new PriorityCounters(4, 7L, null, null, null, null, null, null, null, null, null)),
                stats.priorities());
        assertTrue(stats.pfcEnabledPriorities().isEmpty());
        assertEquals(List.of("rx_vport_rdma_unicast_packets", "tx_vport_rdma_unicast_bytes"),
                List.copyOf(stats.vportRdma().keySet()));
        assertEquals(2L, stats.pauseStormWarningEvents());
        assertEquals(0L, stats.pauseStormErrorEvents());
    }

    @Test
    void interfaceNamesThatCouldLeaveTheHostRootAreRefused() {
        for (String bad : new String[] {"", "..", ".", "a/b", "../etc", "eth 0", "eth0:1", "abcdefghijklmnop"}) {
            Exception e = assertThrows(java.io.IOException.class, () -> InterfaceNames.requireValid(bad), bad);
            assertTrue(e.getMessage().contains("\"" + bad + "\""), e.getMessage());
        }
    }
}
