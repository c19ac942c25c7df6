package io.rdmamon.cli.node;

import io.rdmamon.protocol.model.IbDevice;
import io.rdmamon.protocol.model.IbPort;

import java.util.Map;

/**
 * Whole-device traffic counters for {@code rdmamon stat}, summed over the ports; null when no
 * port has the counter (absent is not zero).
 *
 * <p>eRDMA has no {@code counters/} directory; its traffic is in {@code hw_counters/}
 * {@code rx_bytes_cnt}, {@code tx_bytes_cnt}, {@code rx_packets_cnt}, {@code tx_packets_cnt}
 * (the first driver patches, and possibly Alibaba's out-of-tree driver, prefix them with
 * {@code hw_}; both spellings are accepted). Other devices use the PMA data and packet counters
 * (data already in bytes in the model).
 */
public record TrafficCounters(Long rxBytes, Long rxPackets, Long txBytes, Long txPackets) {
    public static TrafficCounters of(IbDevice device) {
        TrafficCounters sum = new TrafficCounters(null, null, null, null);
        for (IbPort port : device.ports()) {
            sum = sum.plus(of(port));
        }
        return sum;
    }

    static TrafficCounters of(IbPort port) {
        Map<String, Long> hw = port.hwCounters();
        Map<String, Long> pma = port.counters();
        return new TrafficCounters(
                first(erdma(hw, "rx_bytes_cnt"), pma.get("port_rcv_data")),
                first(erdma(hw, "rx_packets_cnt"), pma.get("port_rcv_packets")),
                first(erdma(hw, "tx_bytes_cnt"), pma.get("port_xmit_data")),
                first(erdma(hw, "tx_packets_cnt"), pma.get("port_xmit_packets")));
    }

    public boolean isEmpty() {
        return rxBytes == null && rxPackets == null && txBytes == null && txPackets == null;
    }

    TrafficCounters plus(TrafficCounters other) {
        return new TrafficCounters(add(rxBytes, other.rxBytes), add(rxPackets, other.rxPackets),
                add(txBytes, other.txBytes), add(txPackets, other.txPackets));
    }

    private static Long erdma(Map<String, Long> hw, String name) {
        Long value = hw.get(name);
        return value != null ? value : hw.get("hw_" + name);
    }

    private static Long first(Long preferred, Long fallback) {
        return preferred != null ? preferred : fallback;
    }

    private static Long add(Long a, Long b) {
        if (a == null) {
            return b;
        }
        return b == null ? a : a + b;
    }
}
