package io.rdmamon.collector.store;

import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/** The primitive headline rings: what they keep, what they drop, what they cost. */
class NodeHistoryTest {
    private static RatePoint point(long t, double rx) {
        return new RatePoint(t, rx, 2 * rx, null, rx / 8);
    }

    private static Map<String, RatePoint> ports(long t, String... keys) {
        Map<String, RatePoint> points = new LinkedHashMap<>();
        for (int i = 0; i < keys.length; i++) {
            points.put(keys[i], point(t, 1000.0 * t + i));
        }
        return points;
    }

    private static List<Long> timestamps(NodeHistory history, String key) {
        return history.points().get(key).stream().map(RatePoint::timestampMillis).toList();
    }

    @Test
    void keepsTheNewestPointsUpToTheLimitAndAPortThatJoinsLaterOnlyItsOwn() {
        NodeHistory history = new NodeHistory();
        for (long t = 1; t <= 40; t++) {
            assertEquals(0, history.append(t, t <= 35 ? ports(t, "d/1") : ports(t, "d/1", "e/2"), 25));
        }
        assertEquals(25, history.size());
        assertEquals(java.util.stream.LongStream.rangeClosed(16, 40).boxed().toList(), timestamps(history, "d/1"));
        assertEquals(List.of(36L, 37L, 38L, 39L, 40L), timestamps(history, "e/2"));
        assertEquals(List.of("d/1", "e/2"), List.copyOf(history.points().keySet()));
        // a port gone from the sample goes from the history
        history.append(41, ports(41, "e/2"), 25);
        assertEquals(List.of("e/2"), List.copyOf(history.points().keySet()));
        assertEquals(List.of(36L, 37L, 38L, 39L, 40L, 41L), timestamps(history, "e/2"));
    }

    @Test
    void ratesComeBackAsTheFloatsShortestDecimalAndUnknownAsNull() {
        NodeHistory history = new NodeHistory();
        history.append(7, Map.of("d/1", new RatePoint(7, 1234.5678, 25e9, null, 0.0)), 10);
        RatePoint back = history.points().get("d/1").get(0);
        // seven significant digits: 25 GB/s comes back 0.5 B/s off, far below what a chart shows
        assertEquals(new RatePoint(7, 1234.5677, 2.49999995e10, null, 0.0), back);
        assertNull(back.rxPacketsPerSecond());
    }

    @Test
    void aLowerLimitDropsTheOldestPointsCountsThemPerPortAndFreesTheirMemory() {
        NodeHistory history = new NodeHistory();
        for (long t = 1; t <= 16; t++) {
            history.append(t, ports(t, "a/1", "b/1"), 100);
        }
        long full = history.bytes();
        assertEquals(16 * (8 + 2 * 16), full, "16 slots: a timestamp and two ports' four floats each");
        assertEquals(2 * 6, history.limit(10), "six points of each of two ports");
        assertEquals(List.of(7L, 8L, 9L, 10L, 11L, 12L, 13L, 14L, 15L, 16L), timestamps(history, "a/1"));
        assertEquals(10 * (8 + 2 * 16), history.bytes());
        assertEquals(0, history.limit(10), "nothing more to shed");
        // shed at the next append when the limit fell meanwhile; the append itself then ages one out
        assertEquals(2 * 4, history.append(17, ports(17, "a/1", "b/1"), 6));
        assertEquals(List.of(12L, 13L, 14L, 15L, 16L, 17L), timestamps(history, "b/1"));
        assertEquals(17_000.0 + 1, history.points().get("b/1").get(5).rxBytesPerSecond());
        // room again: the rings grow back as points arrive
        for (long t = 18; t <= 30; t++) {
            assertEquals(0, history.append(t, ports(t, "a/1", "b/1"), 100));
        }
        assertEquals(19, history.size());
        assertEquals(12L, timestamps(history, "a/1").get(0));
    }

    @Test
    void theLimitNeverGoesBelowOnePoint() {
        NodeHistory history = new NodeHistory();
        for (long t = 1; t <= 20; t++) {
            history.append(t, ports(t, "a/1"), 0);
        }
        assertEquals(List.of(20L), timestamps(history, "a/1"));
    }
}
