package io.rdmamon.protocol.model;

import io.rdmamon.protocol.rates.CounterGroup;

/** What a counter counts, from its group and name: the one rule for "show this one in bytes and Mbps too". */
public final class CounterUnits {
    private CounterUnits() {
    }

    /**
     * True for counters of bytes: {@code port_rcv_data}/{@code port_xmit_data} in {@code counters/} (normalised to
     * bytes by the reader; the kernel prints octets / 4), and any name with {@code bytes} or ending in
     * {@code octets} except size-histogram buckets such as {@code rx_1024_to_1518_bytes_phy}, which count
     * packets (mlnx_perf's rule: "bytes" in the key and "_to_" not).
     */
    public static boolean isByteCounter(CounterGroup group, String name) {
        if (group == CounterGroup.PORT_COUNTERS && (name.equals("port_rcv_data") || name.equals("port_xmit_data"))) {
            return true;
        }
        return (name.contains("bytes") || name.endsWith("octets")) && !name.contains("_to_");
    }
}
