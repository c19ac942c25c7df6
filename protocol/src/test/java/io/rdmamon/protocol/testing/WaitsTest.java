package io.rdmamon.protocol.testing;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class WaitsTest {
    private static final Duration LONG = Duration.ofMinutes(1);

    @Test
    void pollReturnsTheFirstObservationThatIsDone() throws Exception {
        AtomicInteger observations = new AtomicInteger();
        assertEquals(3, Waits.poll("three", observations::incrementAndGet, n -> n >= 3, LONG, Duration.ZERO));
        assertEquals(3, observations.get());
    }

    @Test
    void pollFailsNamingWhatItWaitedForAndTheLastObservation() {
        AssertionError e = assertThrows(AssertionError.class,
                () -> Waits.poll("the port to come up", () -> "state DOWN", "state ACTIVE"::equals, Duration.ZERO,
                        Duration.ZERO));
        assertEquals("timed out after 0 s waiting for: the port to come up; last observed: state DOWN", e.getMessage());
    }

    @Test
    void pollUntilReturnsTheLastObservationWhenTheLimitPasses() throws Exception {
        assertEquals("pending", Waits.pollUntil(() -> "pending", "done"::equals, Duration.ZERO, Duration.ZERO));
    }

    @Test
    void aProbesExceptionEndsTheWaitAtOnce() {
        AtomicInteger observations = new AtomicInteger();
        IOException e = assertThrows(IOException.class, () -> Waits.poll("a listener", () -> {
            observations.incrementAndGet();
            throw new IOException("prometheus exited with 1");
        }, x -> true, LONG, Duration.ZERO));
        assertEquals("prometheus exited with 1", e.getMessage());
        assertEquals(1, observations.get());
    }
}
