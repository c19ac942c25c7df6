package io.rdmamon.protocol.model;

import java.util.List;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.Collections;

/**
 * The {@code ethtool -S <netdev>} statistics of a port's netdev, raw and typed.
 *
 * @param netdev                  interface name
 * @param raw                     every statistic, in kernel order
 * @param priorities              per-priority traffic and PFC counters for priorities 0..7 that have any
 * @param pfcEnabledPriorities    priorities with PFC enabled, learned from which {@code rx/tx_prioN_pause}
 *                                counters exist (mlx5 exports them only for PFC-enabled priorities)
 * @param vportRdma               {@code rx/tx_vport_rdma_{unicast,multicast}_{packets,bytes}} that exist
 * @param pauseStormWarningEvents {@code tx_pause_storm_warning_events}; null when absent
 * @param pauseStormErrorEvents   {@code tx_pause_storm_error_events}; null when absent
 */
public record EthtoolStats(
        String netdev,
        Map<String, Long> raw,
        List<PriorityCounters> priorities,
        SortedSet<Integer> pfcEnabledPriorities,
        Map<String, Long> vportRdma,
        Long pauseStormWarningEvents,
        Long pauseStormErrorEvents) {
    public EthtoolStats {
        raw = Maps.copyOrdered(raw);
        priorities = List.copyOf(priorities);
        pfcEnabledPriorities = Collections.unmodifiableSortedSet(new TreeSet<>(pfcEnabledPriorities));
        vportRdma = Maps.copyOrdered(vportRdma);
    }
}
