package io.rdmamon.protocol.model;

/**
 * Per-priority (802.1p user priority 0..7) counters of one netdev, from ethtool. Null = absent.
 *
 * @param priority                 0..7
 * @param rxBytes                  {@code rx_prioN_bytes}
 * @param rxPackets                {@code rx_prioN_packets}
 * @param rxDiscards               {@code rx_prioN_discards}
 * @param txBytes                  {@code tx_prioN_bytes}
 * @param txPackets                {@code tx_prioN_packets}
 * @param rxPauseFrames            {@code rx_prioN_pause} (exists only when PFC is enabled on N)
 * @param rxPauseDurationMicros    {@code rx_prioN_pause_duration}, microseconds as the driver counts
 * @param txPauseFrames            {@code tx_prioN_pause}
 * @param txPauseDurationMicros    {@code tx_prioN_pause_duration}, microseconds
 * @param rxPauseTransitions       {@code rx_prioN_pause_transition}
 */
public record PriorityCounters(
        int priority,
        Long rxBytes,
        Long rxPackets,
        Long rxDiscards,
        Long txBytes,
        Long txPackets,
        Long rxPauseFrames,
        Long rxPauseDurationMicros,
        Long txPauseFrames,
        Long txPauseDurationMicros,
        Long rxPauseTransitions) {
}
