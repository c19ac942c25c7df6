package io.rdmamon.collector.diagnosis;

import io.rdmamon.protocol.model.TransceiverModule;
import io.rdmamon.protocol.model.TransceiverModule.Lane;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** A lane's baseline: its best 5-minute mean of the window, from 10 minutes of history on, per module. */
class RxPowerBaselineTest {
    private static final long MINUTE = 60_000;
    private static final long START = 1_789_999_800_000L; // on a 5-minute boundary

    private static TransceiverModule module(String serial, Double rxLane1, Double rxLane2) {
        return new TransceiverModule("CMIS", 0x18, "QSFP-DD", "Eoptolink", "EOLD-168HG-10-1", "01", serial, "250428",
                45.0, 3.3, List.of(new Lane(1, rxLane1, 1.5e-3, 0.1), new Lane(2, rxLane2, 1.5e-3, 0.1)), null,
                List.of());
    }

    /** Samples every 10 s from {@code fromMinute} (inclusive) to {@code toMinute} (exclusive); the last baseline. */
    private static Map<Integer, Double> feed(RxPowerBaseline baseline, String serial, double rx1, Double rx2,
                                             long fromMinute, long toMinute) {
        Map<Integer, Double> last = null;
        for (long t = START + fromMinute * MINUTE; t < START + toMinute * MINUTE; t += 10_000) {
            last = baseline.update(module(serial, rx1, rx2), t);
        }
        return last;
    }

    @Test
    void noBaselineBeforeTwoCompleteBucketsThenTheBestBucketMeanOfTheWindow() {
        RxPowerBaseline baseline = new RxPowerBaseline(Duration.ofHours(1));
        assertEquals(Map.of(), feed(baseline, "DR4R030015", 2.4e-3, 2.3e-3, 0, 10), "10 minutes: one bucket complete");
        assertEquals(Map.of(1, 2.4e-3, 2, 2.3e-3), round(baseline.update(module("DR4R030015", 2.4e-3, 2.3e-3),
                START + 10 * MINUTE)));

        // lane 1 falls to a quarter: for the rest of the hour its baseline stays where it was
        Map<Integer, Double> during = feed(baseline, "DR4R030015", 0.6e-3, 2.3e-3, 10, 65);
        assertEquals(Map.of(1, 2.4e-3, 2, 2.3e-3), round(during));
        // an hour after the fall, the lower level is the lane's normal
        assertEquals(Map.of(1, 0.6e-3, 2, 2.3e-3), round(feed(baseline, "DR4R030015", 0.6e-3, 2.3e-3, 65, 75)));
    }

    @Test
    void anotherModuleInTheCageStartsOverAndALaneWithoutReadingsHasNoBaseline() {
        RxPowerBaseline baseline = new RxPowerBaseline(Duration.ofHours(1));
        feed(baseline, "DR4R030015", 2.4e-3, null, 0, 30);
        assertEquals(Map.of(1, 2.4e-3), round(baseline.update(module("DR4R030015", 2.4e-3, null), START + 30 * MINUTE)));

        assertEquals(Map.of(), baseline.update(module("DR4R030099", 1.0e-3, 1.0e-3), START + 31 * MINUTE));
        assertEquals(Map.of(1, 1.0e-3, 2, 1.0e-3), round(feed(baseline, "DR4R030099", 1.0e-3, 1.0e-3, 31, 46)));
    }

    /** Float buckets: compare at 4 significant digits. */
    private static Map<Integer, Double> round(Map<Integer, Double> watts) {
        return watts.entrySet().stream().collect(java.util.stream.Collectors.toMap(Map.Entry::getKey,
                e -> Double.parseDouble(String.format(java.util.Locale.ROOT, "%.4g", e.getValue()))));
    }
}
