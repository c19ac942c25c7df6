package io.rdmamon.collector.flaps;

import java.util.List;
import java.util.Set;

/**
 * The flap ledger of one port as the events API serves it.
 *
 * @param device            RDMA device
 * @param port              port number
 * @param entries           the ledger's entries, oldest first
 * @param saturatedCounters 8-bit PMA counters stuck at 255
 */
public record PortFlaps(String device, int port, List<FlapLedger.Entry> entries, Set<String> saturatedCounters) {
    public PortFlaps {
        entries = List.copyOf(entries);
        saturatedCounters = Set.copyOf(saturatedCounters);
    }
}
