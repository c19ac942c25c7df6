package io.rdmamon.agent.stream;

import io.rdmamon.protocol.model.HostSample;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.Duration;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.LongStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class StreamPartsTest {

    @ParameterizedTest
    @CsvSource({
            "http://collector:9470,         collector, 9470, false, /api/agent/stream",
            "https://collector,             collector, 443,  true,  /api/agent/stream",
            "http://collector,              collector, 80,   false, /api/agent/stream",
            "ws://10.0.0.1:8080/rdmamon/,   10.0.0.1,  8080, false, /rdmamon/api/agent/stream",
            "wss://c:1/api/agent/stream,    c,         1,    true,  /api/agent/stream",
            "http://[::1]:9470,             ::1,       9470, false, /api/agent/stream"})
    void endpointFromCollectorUrl(String url, String host, int port, boolean ssl, String path) {
        assertEquals(new StreamEndpoint(host, port, ssl, path), StreamEndpoint.from(url));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "ftp://collector:21 | must start with http://, https://, ws:// or wss://",
            "collector:9470     | must start with http://, https://, ws:// or wss://",
            "http://            | is not a URL",
            "http:///path       | has no host"})
    void badCollectorUrlsAreNamed(String url, String reason) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> StreamEndpoint.from(url));
        assertTrue(e.getMessage().contains("'" + url + "'") && e.getMessage().contains(reason), e.getMessage());
    }

    @Test
    void backoffWindowsDoubleUpToTheCapWithFullJitter() {
        Backoff backoff = new Backoff(Duration.ofSeconds(1), Duration.ofSeconds(60), new SplittableRandom(7));
        List<Long> windows = LongStream.range(0, 9).map(i -> {
            long window = backoff.windowMillis();
            long delay = backoff.nextDelayMillis();
            assertTrue(delay >= 0 && delay <= window, delay + " outside [0, " + window + "]");
            return window;
        }).boxed().toList();
        assertEquals(List.of(1000L, 2000L, 4000L, 8000L, 16000L, 32000L, 60000L, 60000L, 60000L), windows);
        backoff.reset();
        assertEquals(1000L, backoff.windowMillis());
    }

    @Test
    void aThousandAgentsDoNotReconnectInLockstep() {
        SplittableRandom seeds = new SplittableRandom(42);
        long[] firstDelays = LongStream.range(0, 1000).map(i ->
                new Backoff(Duration.ofSeconds(1), Duration.ofSeconds(60), seeds.split()).nextDelayMillis()).toArray();
        // spread over the whole first window: no 100 ms slot holds more than a fifth of the fleet
        long[] perSlot = new long[11];
        for (long delay : firstDelays) {
            perSlot[(int) (delay / 100)]++;
        }
        assertTrue(LongStream.of(perSlot).max().orElseThrow() < 200, java.util.Arrays.toString(perSlot));
    }

    @Test
    void replayBufferDropsTheOldestAndCountsTheLoss() {
        ReplayBuffer buffer = new ReplayBuffer(3);
        for (long seq = 1; seq <= 5; seq++) {
            buffer.add(seq, new HostSample("n", seq * 1000, List.of(), List.of()));
        }
        assertEquals(2, buffer.dropped());
        assertEquals(List.of(3L, 4L, 5L), buffer.after(0).stream().map(ReplayBuffer.Entry::seq).toList());
        buffer.acknowledge(4);
        assertEquals(List.of(5L), buffer.after(0).stream().map(ReplayBuffer.Entry::seq).toList());
        assertEquals(List.of(), buffer.after(5));
    }
}
