package io.rdmamon.agent.ethtool;

import io.rdmamon.protocol.model.EthtoolStats;
import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

class EthtoolViewsTest {

    /** name/value pairs in order, as a source returns them. */
    private static LinkedHashMap<String, Long> raw(Object... namesAndValues) {
        LinkedHashMap<String, Long> raw = new LinkedHashMap<>();
        for (int i = 0; i < namesAndValues.length; i += 2) {
            raw.put((String) namesAndValues[i], ((Number) namesAndValues[i + 1]).longValue());
        }
        return raw;
    }

    /** Everything an EthtoolStats says: equals compares only netdev and raw statistics. */
    private static void assertSameView(EthtoolStats expected, EthtoolStats actual) {
        assertEquals(expected, actual);
        assertEquals(List.copyOf(expected.raw().entrySet()), List.copyOf(actual.raw().entrySet()), "raw, in order");
        assertEquals(expected.priorities(), actual.priorities());
        assertEquals(expected.pfcEnabledPriorities(), actual.pfcEnabledPriorities());
        assertEquals(List.copyOf(expected.vportRdma().entrySet()), List.copyOf(actual.vportRdma().entrySet()));
        assertEquals(expected.pauseStormWarningEvents(), actual.pauseStormWarningEvents());
        assertEquals(expected.pauseStormErrorEvents(), actual.pauseStormErrorEvents());
    }

    @Test
    void equalsEthtoolStatsOfAndResolvesRulesOncePerNetdevAndNameList() {
        EthtoolViews views = new EthtoolViews();
        // priority 6 lossless first; then the driver also lists priority 2's pause counters (PFC enabled there)
        LinkedHashMap<String, Long> first = raw("rx_bytes", 900, "rx_prio6_bytes", 40, "rx_prio6_pause", 3,
                "tx_prio6_pause_duration", 17, "tx_vport_rdma_unicast_bytes", 4096, "tx_pause_storm_error_events", 1);
        LinkedHashMap<String, Long> later = raw("rx_bytes", 950, "rx_prio6_bytes", 48, "rx_prio6_pause", 3,
                "tx_prio6_pause_duration", 19, "tx_vport_rdma_unicast_bytes", 8192, "tx_pause_storm_error_events", 1);
        LinkedHashMap<String, Long> morePriorities = raw("rx_bytes", 990, "rx_prio2_pause", 1, "tx_prio2_pause", 4,
                "rx_prio6_bytes", 50, "rx_prio6_pause", 3, "tx_prio6_pause_duration", 19,
                "tx_vport_rdma_unicast_bytes", 9000, "tx_pause_storm_error_events", 2);
        LinkedHashMap<String, Long> reordered = raw("rx_prio6_bytes", 48, "rx_bytes", 950, "rx_prio6_pause", 3,
                "tx_prio6_pause_duration", 19, "tx_vport_rdma_unicast_bytes", 8192, "tx_pause_storm_error_events", 1);

        record Step(String netdev, LinkedHashMap<String, Long> raw, int resolutions) {
        }
        for (Step step : List.of(
                new Step("ens1f0np0", first, 1),
                new Step("ens1f0np0", later, 1),          // same names: rules kept
                new Step("ens1f0np0", morePriorities, 2), // a name more: resolved again
                new Step("ens1f0np0", reordered, 3),      // same names, another order: resolved again
                new Step("ens2f1np1", later, 4),          // another netdev: its own rules
                new Step("ens1f0np0", reordered, 4))) {
            assertSameView(EthtoolStats.of(step.netdev(), step.raw()), views.of(step.netdev(), RawStatistics.of(step.raw())));
            assertEquals(step.resolutions(), views.resolutions(), step.netdev() + " " + step.raw().keySet());
        }
        assertEquals(List.of(2, 6), List.copyOf(views.of("ens1f0np0", RawStatistics.of(morePriorities)).pfcEnabledPriorities()));
    }

    @Test
    void aNetdevListingMoreStatisticsThanAGroupMaySendSendsTheFirstOnes() {
        // issue 23 item 8: every per-port list of the hello is bounded; the collector refuses a group beyond 8192
        LinkedHashMap<String, Long> many = new LinkedHashMap<>();
        for (int i = 0; i < io.rdmamon.protocol.model.IbPort.MAX_COUNTERS_PER_GROUP + 100; i++) {
            many.put("stat_" + i, (long) i);
        }
        EthtoolStats stats = new EthtoolViews().of("eth0", RawStatistics.of(many));
        assertEquals(io.rdmamon.protocol.model.IbPort.MAX_COUNTERS_PER_GROUP, stats.raw().size());
        assertEquals(List.copyOf(many.keySet()).subList(0, 3), List.copyOf(stats.raw().keySet()).subList(0, 3),
                "the first ones, in the driver's order");
    }
}
