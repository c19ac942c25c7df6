package io.rdmamon.protocol.rates;

import java.util.Map;

/**
 * How far a counter counts and what it does at the top (docs/reference/sysfs-and-counters.md §1.3, §2;
 * docs/reference/ethtool-and-verbs.md §1.1).
 *
 * @param bits       width of the hardware counter
 * @param saturating true when the counter sticks at its maximum (IBA PMA PortCounters) instead of
 *                   wrapping to zero (mlx5 32-bit Q counters, 64-bit counters)
 */
public record CounterWidth(int bits, boolean saturating) {
    public static final CounterWidth WRAPPING_64 = new CounterWidth(64, false);

    // PMA PortCounters widths; the IBA spec makes them stop at their maximum rather than wrap.
    private static final Map<String, CounterWidth> PMA = Map.ofEntries(
            Map.entry("symbol_error", saturating(16)),
            Map.entry("link_error_recovery", saturating(8)),
            Map.entry("link_downed", saturating(8)),
            Map.entry("port_rcv_errors", saturating(16)),
            Map.entry("port_rcv_remote_physical_errors", saturating(16)),
            Map.entry("port_rcv_switch_relay_errors", saturating(16)),
            Map.entry("port_xmit_discards", saturating(16)),
            Map.entry("port_xmit_constraint_errors", saturating(8)),
            Map.entry("port_rcv_constraint_errors", saturating(8)),
            Map.entry("local_link_integrity_errors", saturating(4)),
            Map.entry("excessive_buffer_overrun_errors", saturating(4)),
            Map.entry("VL15_dropped", saturating(16)),
            Map.entry("port_xmit_wait", saturating(32)));

    // mlx5 Q counters are read with be32_to_cpu: 32 bits that wrap. Congestion counters,
    // rx_icrc_encapsulated and eRDMA statistics are 64-bit.
    private static final java.util.Set<String> MLX5_Q_COUNTERS = java.util.Set.of(
            "rx_write_requests", "rx_read_requests", "rx_atomic_requests", "rx_dct_connect", "out_of_buffer",
            "out_of_sequence", "duplicate_request", "rnr_nak_retry_err", "packet_seq_err", "implied_nak_seq_err",
            "local_ack_timeout_err", "resp_local_length_error", "resp_cqe_error", "req_cqe_error",
            "req_remote_invalid_request", "req_remote_access_errors", "resp_remote_access_errors",
            "resp_cqe_flush_error", "req_cqe_flush_error", "req_transport_retries_exceeded",
            "req_rnr_retries_exceeded", "roce_adp_retrans", "roce_adp_retrans_to", "roce_slow_restart",
            "roce_slow_restart_cnps", "roce_slow_restart_trans");

    // mlx5e qcnt group (MLX5E_READ_CTR32_CPU)
    private static final java.util.Set<String> ETHTOOL_32 = java.util.Set.of("rx_out_of_buffer", "rx_if_down_packets");

    public CounterWidth {
        if (bits < 1 || bits > 64) {
            throw new IllegalArgumentException("counter width must be 1..64 bits: " + bits);
        }
    }

    public static CounterWidth saturating(int bits) {
        return new CounterWidth(bits, true);
    }

    public static CounterWidth wrapping(int bits) {
        return new CounterWidth(bits, false);
    }

    /**
     * The width of counter {@code name} of {@code group}. Data and packet counters in {@code counters/}
     * are taken as the 64-bit PortCountersExt group, which mlx5 always advertises; unknown names are 64-bit.
     */
    public static CounterWidth of(CounterGroup group, String name) {
        return switch (group) {
            case PORT_COUNTERS -> PMA.getOrDefault(name, WRAPPING_64);
            case HW_COUNTERS -> MLX5_Q_COUNTERS.contains(name) ? wrapping(32) : WRAPPING_64;
            case ETHTOOL -> ETHTOOL_32.contains(name) ? wrapping(32) : WRAPPING_64;
        };
    }

    /** Largest value, as an unsigned long. */
    public long max() {
        return bits == 64 ? -1L : (1L << bits) - 1;
    }

    /**
     * {@code current + delta} as the hardware counts: a saturating counter sticks at {@link #max()}, a
     * wrapping one continues from zero (the simulator counts with this; both arguments are unsigned).
     */
    public long add(long current, long delta) {
        if (saturating) {
            long room = max() - current;
            return Long.compareUnsigned(delta, room) >= 0 ? max() : current + delta;
        }
        return (current + delta) & max();
    }

    /** {@code value} brought into range the way the counter would hold it: clipped if saturating, else wrapped. */
    public long clamp(long value) {
        if (saturating) {
            return Long.compareUnsigned(value, max()) > 0 ? max() : value;
        }
        return value & max();
    }
}
