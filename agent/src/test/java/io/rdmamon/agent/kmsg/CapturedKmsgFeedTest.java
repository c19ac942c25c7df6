package io.rdmamon.agent.kmsg;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

class CapturedKmsgFeedTest {
    private static final String FIRST = "6,100,1000,-;rdma_rxe: loaded\n";
    private static final String APPENDED = "3,103,5000,-;mlx5_core 0000:3b:00.0: poll_health:852:(pid 0): device's"
            + " health compromised - reached miss count\n SUBSYSTEM=pci\n DEVICE=+pci:0000:3b:00.0\n";

    @Test
    void recordsAppendedLaterAreReadByALaterPollAndTheGapCounted(@TempDir Path dir) throws IOException {
        Path capture = dir.resolve("kmsg");
        Files.writeString(capture, FIRST);
        try (CapturedKmsgFeed feed = new CapturedKmsgFeed(capture)) {
            assertEquals(List.of(100L), seqs(feed.poll(10)));
            assertEquals(List.of(), seqs(feed.poll(10)));

            Files.writeString(capture, APPENDED, StandardOpenOption.APPEND);
            KernelRecordFeed.Poll poll = feed.poll(10);
            assertEquals(List.of(103L), seqs(poll));
            assertEquals("+pci:0000:3b:00.0", poll.records().get(0).device());
            assertEquals(2, poll.overwritten()); // 101 and 102 were never in the capture
            assertEquals(List.of(), seqs(feed.poll(10)));
        }
    }

    @Test
    void aLargeAppendCostsOnlyItsLastBytesFromARecordStart(@TempDir Path dir) throws IOException {
        Path capture = dir.resolve("kmsg");
        Files.writeString(capture, FIRST);
        try (CapturedKmsgFeed feed = new CapturedKmsgFeed(capture)) {
            feed.poll(10);
            StringBuilder burst = new StringBuilder();
            long seq = 101;
            while (burst.length() <= CapturedKmsgFeed.MAX_BYTES) {
                burst.append(APPENDED.replace("3,103,", "3," + seq++ + ","));
            }
            Files.writeString(capture, burst, StandardOpenOption.APPEND);
            KernelRecordFeed.Poll poll = feed.poll(Integer.MAX_VALUE);
            long last = seq - 1;
            assertEquals(last, poll.records().get(poll.records().size() - 1).seq());
            assertEquals(last - 100 - poll.records().size(), poll.overwritten());
            poll.records().forEach(r -> assertEquals("+pci:0000:3b:00.0", r.device()));
        }
    }

    private static List<Long> seqs(KernelRecordFeed.Poll poll) {
        return poll.records().stream().map(KmsgRecord::seq).toList();
    }
}
