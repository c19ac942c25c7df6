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

    /**
     * A section that hangs without reading (a lock held elsewhere, a parser in a loop) is left behind after five read
     * deadlines without a step; the sample is run again without it, and later samples skip it until it returns. A
     * section that keeps stepping (many quick reads, longer than a deadline in all) is work, not a hang.
     */
    @Test
    void aSectionThatHangsWithoutReadingIsLeftBehindAndSkippedUntilItReturns() throws Exception {
        ReadWatchdog watchdog = new ReadWatchdog(Duration.ofMillis(100), 4, key -> key.toString());
        CountDownLatch lock = new CountDownLatch(1);
        java.util.concurrent.atomic.AtomicBoolean hang = new java.util.concurrent.atomic.AtomicBoolean(true);
        Supplier<String> sample = () -> {
            StringBuilder read = new StringBuilder();
            for (String source : new String[]{"lldp eth0", "qos eth0"}) {
                try {
                    read.append(watchdog.section(source, () -> {
                        if (source.startsWith("lldp") && hang.get()) {
                            lock.await();
                        }
                        return source + " ok; ";
                    }));
                } catch (ReadWatchdog.StuckReadException e) {
                    read.append(source).append(": ").append(e.getMessage()).append("; ");
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            return read.toString();
        };
        Supplier<String> busy = () -> {
            try {
                return watchdog.section("sysfs mlx5_0", () -> {
                    for (int i = 0; i < 40; i++) { // 40 reads of 10 ms: 400 ms in all, four deadlines, always stepping
                        watchdog.watch("counter " + i, () -> {
                            Thread.sleep(10);
                            return null;
                        });
                    }
                    return "sysfs ok";
                });
            } catch (Exception e) {
                return e.toString();
            }
        };

        String first = assertTimeoutPreemptively(Duration.ofSeconds(30), () -> watchdog.run(sample, reason -> reason));
        assertEquals(true, first.startsWith("lldp eth0: read stuck for "), first);
        assertEquals(true, first.endsWith("skipped until it returns; qos eth0 ok; "), first);
        assertEquals(1, watchdog.stuckReads());
        assertEquals("sysfs ok", watchdog.run(busy, reason -> reason));

        hang.set(false);
        lock.countDown();
        Waits.waitFor(() -> watchdog.stuckReads() == 0, "the hung section to return");
        assertEquals("lldp eth0 ok; qos eth0 ok; ", watchdog.run(sample, reason -> reason));
    }
}
