package io.rdmamon.collector.changes;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** {@link ChangeLog}: newest first, bounded per node and for the fleet, every eviction counted. */
class ChangeLogTest {
    @Test
    void entriesComeNewestFirstAndFilter() {
        ChangeLog log = new ChangeLog(10, 100);
        log.record(change("a", 1, ChangeKind.LINK_FLAP));
        log.record(change("b", 2, ChangeKind.MODULE_SWAPPED));
        log.record(change("a", 3, ChangeKind.DIAGNOSIS_RAISED));

        assertEquals(List.of(3L, 2L, 1L), times(log.newest(null, c -> true, 0, 10)));
        assertEquals(List.of(3L, 1L), times(log.newest("a", c -> true, 0, 10)));
        assertEquals(List.of(2L), times(log.newest(null, c -> c.kind() == ChangeKind.MODULE_SWAPPED, 0, 10)));
        assertEquals(List.of(3L), times(log.newest(null, c -> true, 0, 1)));
        assertEquals(List.of(3L), times(log.newest(null, c -> true, 2, 10)), "after entry 2");
        assertEquals(List.of(), log.newest("c", c -> true, 0, 10));
    }

    /** The sources another part of the collector feeds (kernel log, devlink health) go through the same door. */
    @Test
    void kernelAndDevlinkEventsEnterThroughRecord() {
        ChangeLog log = new ChangeLog();
        List<ChangeLog.Entry> heard = new ArrayList<>();
        log.onRecord(heard::add);
        log.record(new Change(5, "gpu-01", "mlx5_0", 0, ChangeKind.KERNEL_EVENT, ChangeSeverity.CRITICAL,
                "mlx5_core 0000:3b:00.0: mlx5_health_check_fatal_sensors: fw fatal"));
        log.record(new Change(6, "gpu-01", "mlx5_0", 0, ChangeKind.DEVLINK_REPORTER, ChangeSeverity.WARNING,
                "fw_fatal reporter healthy → error"));

        assertEquals(List.of("devlink_reporter", "kernel_event"),
                log.newest(null, c -> true, 0, 10).stream().map(e -> e.change().kind().id()).toList());
        assertEquals(2, heard.size());
        assertEquals(Map.of("gpu-01", Map.of(ChangeKind.KERNEL_EVENT, 1L, ChangeKind.DEVLINK_REPORTER, 1L)), log.counts());
    }

    @Test
    void aNodePastItsBoundLosesItsOldestOnly() {
        ChangeLog log = new ChangeLog(3, 100);
        log.record(change("quiet", 0, ChangeKind.LINK_FLAP));
        for (int i = 1; i <= 5; i++) {
            log.record(change("noisy", i, ChangeKind.LINK_FLAP));
        }
        assertEquals(List.of(5L, 4L, 3L), times(log.newest("noisy", c -> true, 0, 10)));
        assertEquals(List.of(0L), times(log.newest("quiet", c -> true, 0, 10)));
        assertEquals(List.of(5L, 4L, 3L, 0L), times(log.newest(null, c -> true, 0, 10)));
        assertEquals(2, log.evictions());
        assertEquals(4, log.size());
        assertEquals(5L, log.counts().get("noisy").get(ChangeKind.LINK_FLAP), "every change counts, evicted or not");
    }

    @Test
    void theFleetPastItsBoundLosesItsOldest() {
        ChangeLog log = new ChangeLog(10, 4);
        for (int i = 1; i <= 6; i++) {
            log.record(change("n" + i, i, ChangeKind.AGENT_RESTART));
        }
        assertEquals(List.of(6L, 5L, 4L, 3L), times(log.newest(null, c -> true, 0, 10)));
        assertEquals(List.of(), log.newest("n1", c -> true, 0, 10));
        assertEquals(2, log.evictions());
    }

    /**
     * An agent reporting 1,000 events a second for 100 s: the log holds its per-node bound and keeps the quiet
     * node's entry (a flood of one node does not push the others out).
     */
    @Test
    void aFloodOfOneNodeStaysWithinItsBound() {
        ChangeLog log = new ChangeLog(512, 2048);
        log.record(change("quiet", 0, ChangeKind.MODULE_SWAPPED));
        for (long ms = 1; ms <= 100_000; ms++) {
            log.record(change("flood", ms, ChangeKind.KERNEL_EVENT));
        }
        assertEquals(513, log.size());
        assertEquals(100_000 - 512, log.evictions());
        assertEquals(List.of(0L), times(log.newest("quiet", c -> true, 0, 10)));
        assertEquals(100_000L, log.newest("flood", c -> true, 0, 1).get(0).change().timeMillis());
        assertEquals(100_001, log.lastSeq());
    }

    private static Change change(String node, long time, ChangeKind kind) {
        return new Change(time, node, "mlx5_0", 1, kind, ChangeSeverity.INFO, kind.id());
    }

    private static List<Long> times(List<ChangeLog.Entry> entries) {
        return entries.stream().map(e -> e.change().timeMillis()).toList();
    }
}
