package io.rdmamon.collector.pingmesh;

import io.rdmamon.collector.model.PortKey;
import io.rdmamon.protocol.model.IbPort;
import io.rdmamon.protocol.testing.Samples;
import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.Set;

import static io.rdmamon.protocol.testing.Samples.ordered;
import static org.junit.jupiter.api.Assertions.assertEquals;

class PathCountersTest {
    private static final PortKey KEY = new PortKey("n1", "rxe0", 1);
    private final PathCounters counters = new PathCounters(60_000);

    private static IbPort rxe(long outOfSeq, long retries, long symbolErrors) {
        return Samples.rocePort().counters(ordered("symbol_error", symbolErrors, "port_rcv_data", 5L))
                .hwCounters(ordered("out_of_seq_request", outOfSeq, "completer_retry_err", retries, "rdma_sends", 9L))
                .build();
    }

    @Test
    void deltasOverTheWindowOfTheCountersAPortHas() {
        counters.record(KEY, rxe(10, 1, 0), 0);
        counters.record(KEY, rxe(15, 1, 0), 30_000);
        counters.record(KEY, rxe(40, 3, 2), 50_000);
        assertEquals(Map.of("symbol_error", 2L, "out_of_seq_request", 30L, "completer_retry_err", 2L),
                counters.deltas(KEY));
        counters.record(KEY, rxe(41, 3, 2), 91_000); // the snapshot of 0 s left the window; 30 s is the base now
        assertEquals(26L, counters.deltas(KEY).get("out_of_seq_request"));
    }

    @Test
    void aCounterThatWentDownIsLeftOutAnUnknownPortHasNone() {
        counters.record(KEY, rxe(10, 5, 0), 0);
        counters.record(KEY, rxe(12, 0, 0), 1_000); // the driver reset completer_retry_err
        assertEquals(Set.of("symbol_error", "out_of_seq_request"), counters.deltas(KEY).keySet());
        assertEquals(Map.of(), counters.deltas(new PortKey("n2", "rxe0", 1)));
        counters.retain(Set.of());
        assertEquals(Map.of(), counters.deltas(KEY));
    }
}
