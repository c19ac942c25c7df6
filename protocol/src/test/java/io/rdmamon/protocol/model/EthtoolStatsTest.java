package io.rdmamon.protocol.model;

import org.junit.jupiter.api.Test;

import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class EthtoolStatsTest {
    /** The ethtool names each {@link PriorityCounters} field is read from, in record order. */
    private static final List<String> FIELD_NAMES = List.of("rx_prio%d_bytes", "rx_prio%d_packets", "rx_prio%d_discards",
            "tx_prio%d_bytes", "tx_prio%d_packets", "rx_prio%d_pause", "rx_prio%d_pause_duration", "tx_prio%d_pause",
            "tx_prio%d_pause_duration", "rx_prio%d_pause_transition");

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

        EthtoolStats stats = EthtoolStats.of("eth2", raw);

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
    void prioritiesWithoutAnyNameAreLeftOutAndVportRdmaKeepsItsFixedOrder() {
        Map<String, Long> raw = new LinkedHashMap<>();
        raw.put("tx_vport_rdma_unicast_bytes", 4L);
        raw.put("rx_vport_rdma_unicast_packets", 1L);
        raw.put("rx_vport_unicast_bytes", 99L);
        raw.put("rx_prio4_bytes", 7L);
        raw.put("rx_prio9_bytes", 8L); // not an 802.1p priority
        raw.put("tx_prio2_discards", 3L); // no field of PriorityCounters
        raw.put("tx_pause_storm_warning_events", 2L);
        raw.put("tx_pause_storm_error_events", 0L);

        EthtoolStats stats = EthtoolStats.of("eth3", raw);

        assertEquals(List.of(new PriorityCounters(4, 7L, null, null, null, null, null, null, null, null, null)),
                stats.priorities());
        assertTrue(stats.pfcEnabledPriorities().isEmpty());
        assertEquals(List.of("rx_vport_rdma_unicast_packets", "tx_vport_rdma_unicast_bytes"),
                List.copyOf(stats.vportRdma().keySet()));
        assertEquals(2L, stats.pauseStormWarningEvents());
        assertEquals(0L, stats.pauseStormErrorEvents());
    }

    /**
     * Every typed value is the raw statistic of its name, whatever the values, and a statistic absent this time
     * (a null value, as an absent slot decodes) is absent from the typed view too: raw and typed cannot disagree.
     */
    @Test
    void everyTypedValueIsTheRawStatisticOfItsName() {
        Map<String, Long> raw = new LinkedHashMap<>();
        long value = 1;
        for (int prio = 0; prio < 8; prio++) {
            for (String field : FIELD_NAMES) {
                raw.put(String.format(field, prio), value++ * 1_000_003L);
            }
        }
        EthtoolStats.VPORT_RDMA_NAMES.forEach(name -> raw.put(name, -7L)); // u64 above Long.MAX_VALUE
        raw.put(EthtoolStats.PAUSE_STORM_WARNING, 11L);
        raw.put(EthtoolStats.PAUSE_STORM_ERROR, null);
        raw.put("rx_prio5_pause_duration", null);

        EthtoolStats stats = EthtoolStats.of("eth2", raw);

        assertEquals(8, stats.priorities().size());
        for (PriorityCounters p : stats.priorities()) {
            assertEquals(typedFields(p), FIELD_NAMES.stream().map(f -> raw.get(String.format(f, p.priority()))).toList());
        }
        assertNull(stats.priorities().get(5).rxPauseDurationMicros());
        assertEquals(Set.of(0, 1, 2, 3, 4, 5, 6, 7), stats.pfcEnabledPriorities());
        stats.vportRdma().forEach((name, v) -> assertEquals(raw.get(name), v, name));
        assertEquals(EthtoolStats.VPORT_RDMA_NAMES, List.copyOf(stats.vportRdma().keySet()));
        assertEquals(11L, stats.pauseStormWarningEvents());
        assertNull(stats.pauseStormErrorEvents());
    }

    /** The collector's path (rules resolved once per layout, values by index) derives what the agent's does. */
    @Test
    void aDerivationOverCounterMapKeysGivesWhatOfGives() {
        List<String> names = List.of("rx_bytes", "rx_vport_rdma_unicast_bytes", "rx_prio3_bytes", "rx_prio3_pause",
                "tx_prio3_pause_duration", "tx_pause_storm_error_events");
        CounterMap.Keys keys = new CounterMap.Keys(names);
        EthtoolStats.Derivation derivation = new EthtoolStats.Derivation(keys);
        BitSet absent = new BitSet();
        absent.set(2); // rx_prio3_bytes: not read this time
        CounterMap raw = CounterMap.of(keys, new long[] {1, 2, 3, 4, 5, 6}, absent, 0);

        EthtoolStats derived = derivation.derive("eth2", raw);
        EthtoolStats byName = EthtoolStats.of("eth2", new LinkedHashMap<>(raw));

        assertEquals(byName, derived);
        assertEquals(byName.priorities(), derived.priorities());
        assertEquals(List.of(new PriorityCounters(3, null, null, null, null, null, 4L, null, null, 5L, null)),
                derived.priorities());
        assertEquals(byName.pfcEnabledPriorities(), derived.pfcEnabledPriorities());
        assertEquals(Map.of("rx_vport_rdma_unicast_bytes", 2L), derived.vportRdma());
        assertEquals(6L, derived.pauseStormErrorEvents());

        CounterMap other = CounterMap.of(new CounterMap.Keys(names), new long[6], new BitSet(), 0);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> derivation.derive("eth3", other));
        assertEquals("the counter map of eth3 has other names than these rules", e.getMessage());
    }

    @Test
    void statisticsAreEqualWhenNetdevAndRawStatisticsAre() {
        Map<String, Long> raw = Map.of("rx_prio3_pause", 1L);
        assertEquals(EthtoolStats.of("eth2", raw), EthtoolStats.of("eth2", new LinkedHashMap<>(raw)));
        assertEquals(EthtoolStats.of("eth2", raw).hashCode(), EthtoolStats.of("eth2", raw).hashCode());
        assertNotEquals(EthtoolStats.of("eth2", raw), EthtoolStats.of("eth3", raw));
        assertNotEquals(EthtoolStats.of("eth2", raw), EthtoolStats.of("eth2", Map.of("rx_prio3_pause", 2L)));
    }

    private static List<Long> typedFields(PriorityCounters p) {
        return java.util.Arrays.asList(p.rxBytes(), p.rxPackets(), p.rxDiscards(), p.txBytes(), p.txPackets(),
                p.rxPauseFrames(), p.rxPauseDurationMicros(), p.txPauseFrames(), p.txPauseDurationMicros(),
                p.rxPauseTransitions());
    }
}
