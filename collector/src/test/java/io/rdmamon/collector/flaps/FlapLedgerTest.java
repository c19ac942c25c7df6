package io.rdmamon.collector.flaps;

import io.rdmamon.protocol.model.IbPort;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

class FlapLedgerTest {
    private static final long T = 1_700_000_000_000L;

    static Stream<Arguments> samples() {
        return Stream.of(
                Arguments.of("two down/up cycles of the carrier",
                        port("carrier_changes=7 carrier_up_count=3 carrier_down_count=4", ""),
                        port("carrier_changes=11 carrier_up_count=5 carrier_down_count=6", ""),
                        2L, "carrier_down_count 4->6, carrier_up_count 3->5, carrier_changes 7->11"),
                Arguments.of("kernel before 4.16: half the carrier changes, rounded up",
                        port("carrier_changes=10", ""), port("carrier_changes=13", ""),
                        2L, "carrier_changes 10->13"),
                Arguments.of("the carrier came up: a transition, not a flap",
                        port("carrier_changes=1 carrier_up_count=0 carrier_down_count=1", ""),
                        port("carrier_changes=2 carrier_up_count=1 carrier_down_count=1", ""),
                        0L, "carrier_up_count 0->1, carrier_changes 1->2"),
                Arguments.of("RoCE: carrier and link_downed see the same down once",
                        port("carrier_down_count=1", "link_downed=5"), port("carrier_down_count=2", "link_downed=6"),
                        1L, "carrier_down_count 1->2, link_downed 5->6"),
                Arguments.of("InfiniBand: downs plus retrains",
                        port("", "link_downed=3 link_error_recovery=0"), port("", "link_downed=5 link_error_recovery=1"),
                        3L, "link_downed 3->5, link_error_recovery 0->1"),
                Arguments.of("an 8-bit counter that reaches 255 counts at least its increase",
                        port("", "link_downed=250"), port("", "link_downed=255"),
                        5L, "link_downed 250->255 saturated"),
                Arguments.of("a counter stuck at 255 shows nothing",
                        port("", "link_downed=255"), port("", "link_downed=255"), null, null),
                Arguments.of("a counter that went down is a new baseline (driver reload)",
                        port("carrier_down_count=9", "link_downed=4"), port("carrier_down_count=0", "link_downed=0"),
                        null, null),
                Arguments.of("a counter absent before is a baseline",
                        port("", ""), port("carrier_down_count=3", "link_downed=1"), null, null));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("samples")
    void eachIncreaseIsAnEntryWithItsFlaps(String name, IbPort before, IbPort after, Long flaps, String changes) {
        FlapLedger ledger = new FlapLedger(10);
        ledger.observe(null, before, T, 0);

        FlapLedger.Entry entry = ledger.observe(before, after, T + 1000, 0);

        if (flaps == null) {
            assertNull(entry);
            assertEquals(List.of(), ledger.entries());
            return;
        }
        assertEquals(flaps, entry.flaps());
        assertEquals(T + 1000, entry.timestampMillis());
        assertEquals("ens7f0np0", entry.netdev());
        assertEquals(changes, String.join(", ", entry.changes().stream().map(c -> c.counter() + " " + c.from() + "->"
                + c.to() + (c.saturated() ? " saturated" : "")).toList()));
        assertEquals(List.of(entry), ledger.entries());
    }

    @Test
    void countersAt255AreReportedSaturatedUntilTheyMoveAgain() {
        FlapLedger ledger = new FlapLedger(10);
        ledger.observe(null, port("", "link_downed=255 link_error_recovery=12"), T, 0);
        assertEquals(Set.of("link_downed"), ledger.saturatedCounters());

        ledger.observe(port("", "link_downed=255"), port("", "link_downed=0"), T + 1000, 0);
        assertEquals(Set.of(), ledger.saturatedCounters());
    }

    @Test
    void flapsAreSummedAfterATimeAndOldEntriesForgotten() {
        FlapLedger ledger = new FlapLedger(10);
        for (int i = 1; i <= 4; i++) {
            ledger.observe(port("carrier_down_count=" + (i - 1), ""), port("carrier_down_count=" + i, ""),
                    T + i * 60_000L, T);
        }
        assertEquals(4, ledger.flapsAfter(T));
        assertEquals(2, ledger.flapsAfter(T + 2 * 60_000L));
        assertEquals(0, ledger.flapsAfter(T + 4 * 60_000L));

        ledger.observe(port("carrier_down_count=4", ""), port("carrier_down_count=4", ""), T + 5 * 60_000L,
                T + 2 * 60_000L);
        assertEquals(List.of(T + 3 * 60_000L, T + 4 * 60_000L),
                ledger.entries().stream().map(FlapLedger.Entry::timestampMillis).toList());
    }

    @Test
    void theOldestEntriesGoBeyondTheCap() {
        FlapLedger ledger = new FlapLedger(3);
        for (int i = 1; i <= 5; i++) {
            ledger.observe(port("carrier_down_count=" + (i - 1), ""), port("carrier_down_count=" + i, ""), T + i, 0);
        }
        assertEquals(List.of(T + 3, T + 4, T + 5), ledger.entries().stream().map(FlapLedger.Entry::timestampMillis).toList());
        assertThrows(IllegalArgumentException.class, () -> new FlapLedger(0));
    }

    /** A RoCE port with netdev counters and PMA counters given as "name=value ...". */
    static IbPort port(String netdevCounters, String pmaCounters) {
        return IbPort.builder().port(1).stateId(4).state("ACTIVE").physStateId(5).physState("LinkUp")
                .linkLayer("Ethernet").lid("0x0").netdev("ens7f0np0").counters(counters(pmaCounters))
                .netdevCounters(counters(netdevCounters)).build();
    }

    private static Map<String, Long> counters(String text) {
        Map<String, Long> counters = new LinkedHashMap<>();
        for (String pair : text.split(" ")) {
            if (!pair.isEmpty()) {
                String[] nameValue = pair.split("=");
                counters.put(nameValue[0], Long.parseLong(nameValue[1]));
            }
        }
        return counters;
    }
}
