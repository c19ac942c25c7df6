package io.rdmamon.agent.host;

import io.rdmamon.protocol.testing.Waits;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

class ReadWatchdogTest {

    /** Stuck reads hold one thread each; at the limit the host is not read (and no thread started) until one returns. */
    @Test
    void atTheStuckReadLimitTheSampleSaysWhichReadsAreStuckUntilOneReturns() throws Exception {
        ReadWatchdog watchdog = new ReadWatchdog(Duration.ofMillis(100), 1, key -> "counters/" + key);
        CountDownLatch firmware = new CountDownLatch(1);
        Supplier<String> sample = () -> {
            try {
                return watchdog.watch("port_xmit_wait", () -> {
                    firmware.await();
                    return "read";
                });
            } catch (InterruptedException | IOException e) {
                return e.getMessage();
            }
        };

        String first = assertTimeoutPreemptively(Duration.ofSeconds(30), () -> watchdog.run(sample, reason -> reason));
        String second = watchdog.run(sample, reason -> reason);

        String refused = "1 reads stuck (limit 1), host not read until one returns: counters/port_xmit_wait";
        assertEquals(refused, first);
        assertEquals(refused, second);
        assertEquals(1, watchdog.threadsStarted());

        firmware.countDown();
        Waits.waitFor(() -> watchdog.stuckReads() == 0, "the stuck read to return");
        assertEquals("read", watchdog.run(sample, reason -> reason));
    }
}
