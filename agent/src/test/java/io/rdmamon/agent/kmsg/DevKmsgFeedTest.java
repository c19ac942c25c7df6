package io.rdmamon.agent.kmsg;

import io.rdmamon.nativeio.NativeSupport;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** The build machine's own {@code /dev/kmsg}, where this process may read and write it (root without restrictions). */
class DevKmsgFeedTest {
    private static final Path DEV_KMSG = Path.of("/dev/kmsg");

    @Test
    void startsAtTheEndAndReadsAForgedLineAsUserspaceAndIgnoresIt() throws IOException {
        assumeTrue(NativeSupport.unsupportedReason().isEmpty() && Files.isWritable(DEV_KMSG), "no writable /dev/kmsg");
        try (DevKmsgFeed feed = new DevKmsgFeed(DEV_KMSG.toString())) {
            KernelRecordFeed.Poll first;
            try {
                first = feed.poll(10_000);
            } catch (AccessDeniedException e) {
                assumeTrue(false, "no CAP_SYSLOG: " + e.getMessage());
                return;
            }
            assertFalse(first.more(), "a reader opened at the end is caught up at once");
            String marker = "rdmamon-test-" + UUID.randomUUID();
            // what a process imitating mlx5 writes: it reads back with facility LOG_USER
            Files.writeString(DEV_KMSG, "<2>mlx5_core 0000:3b:00.0: Fatal error 1 detected " + marker + "\n",
                    StandardCharsets.UTF_8);
            List<KmsgRecord> records = new ArrayList<>();
            KernelRecordFeed.Poll poll;
            do {
                poll = feed.poll(100);
                records.addAll(poll.records());
            } while (poll.more());
            KmsgRecord forged = records.stream().filter(r -> r.text().contains(marker)).findFirst().orElseThrow();
            assertEquals(1, forged.facility());
            assertEquals(2, forged.level());
            assertTrue(forged.text().startsWith("mlx5_core 0000:3b:00.0: Fatal error 1 detected"));
            assertNull(KernelEventPatterns.classify(forged));
        }
    }
}
