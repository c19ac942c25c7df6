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

    /** A hung replica is left after 10 s by default, later only when 5 sampling intervals are longer. */
    @Test
    void theAcknowledgementDeadlineDefaultsToTenSecondsOrFiveIntervals() {
        AgentStreamerOptions defaults = AgentStreamerOptions.of("ws://collector:9470", "n");
        assertEquals(Duration.ofSeconds(10), defaults.ackDeadline());
        assertEquals(Duration.ofSeconds(10), defaults.withInterval(Duration.ofSeconds(2)).ackDeadline());
        assertEquals(Duration.ofSeconds(30), defaults.withInterval(Duration.ofSeconds(6)).ackDeadline());
        assertEquals(Duration.ofSeconds(3), defaults.withInterval(Duration.ofSeconds(6))
                .withAckTimeout(Duration.ofSeconds(3)).ackDeadline());
        assertThrows(IllegalArgumentException.class, () -> defaults.withAckTimeout(Duration.ZERO));
    }

    /** Before: the default cap was 60 s, so agents took up to a minute to come back after a collector restart. */
    @Test
    void agentsComeBackWithinFifteenSecondsOfACollectorRestart() {
        AgentStreamerOptions defaults = AgentStreamerOptions.of("ws://collector:9470", "n");
        Backoff backoff = new Backoff(defaults.backoffBase(), defaults.backoffCap(), new SplittableRandom(3));
        for (int failedAttempt = 0; failedAttempt < 100; failedAttempt++) {
            assertTrue(backoff.nextDelayMillis() <= 15_000);
        }
        assertEquals(15_000L, backoff.windowMillis());
    }

    /**
     * The fleet that has been retrying for a while (every agent at the capped window) when the collector
     * comes back: full jitter still spreads 1,000 agents over the whole 15 s, no second gets more than
     * twice its fair share (1000 / 15 ≈ 67).
     */
    @Test
    void aThousandAgentsAtTheCapStillSpreadOverTheWholeWindow() {
        SplittableRandom seeds = new SplittableRandom(11);
        long[] perSecond = new long[16];
        for (int agent = 0; agent < 1000; agent++) {
            Backoff backoff = new Backoff(Backoff.DEFAULT_BASE, Backoff.DEFAULT_CAP, seeds.split());
            while (backoff.windowMillis() < Backoff.DEFAULT_CAP.toMillis()) {
                backoff.nextDelayMillis();
            }
            perSecond[(int) (backoff.nextDelayMillis() / 1000)]++;
        }
        assertTrue(LongStream.of(perSecond).max().orElseThrow() < 2 * 1000 / 15, java.util.Arrays.toString(perSecond));
        assertTrue(LongStream.of(perSecond).limit(15).min().orElseThrow() > 0, java.util.Arrays.toString(perSecond));
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

    @Test
    void theLastAcknowledgedSamplesAreKeptForTheNextConnection() {
        ReplayBuffer buffer = new ReplayBuffer(100, 2);
        for (long seq = 1; seq <= 6; seq++) {
            buffer.add(seq, new HostSample("n", seq * 1000, List.of(), List.of()));
        }
        buffer.acknowledge(4);
        assertEquals(2, buffer.size(), "only 5 and 6 wait for an ack");
        assertEquals(2, buffer.replayFrom(4), "a reconnect sends 3 and 4 again, then 5 and 6");
        assertEquals(List.of(3L, 4L, 5L, 6L), buffer.after(buffer.replayFrom(4)).stream().map(ReplayBuffer.Entry::seq).toList());
        assertEquals(List.of(5L, 6L), buffer.after(4).stream().map(ReplayBuffer.Entry::seq).toList(),
                "on the same connection, only what was not sent yet");
        buffer.acknowledge(6);
        assertEquals(List.of(5L, 6L), buffer.after(buffer.replayFrom(6)).stream().map(ReplayBuffer.Entry::seq).toList());
        assertEquals(6, new ReplayBuffer(10, 0).replayFrom(6), "nothing held: from the last ack");
    }
}
