package io.rdmamon.collector;

import org.junit.jupiter.api.Test;

import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;

class EventLoopDelayTest {
    @Test
    void theDelayIsHowFarPastItsDueTimeTheNextTickIsAndGrowsWhileBlocked() {
        AtomicLong nanos = new AtomicLong(1_000_000_000L);
        EventLoopDelay delay = new EventLoopDelay(nanos::get);
        nanos.addAndGet(200_000_000L); // the next tick is not due yet
        assertEquals(0.0, delay.delaySeconds());
        delay.tick();
        nanos.addAndGet(EventLoopDelay.TICK_MILLIS * 1_000_000L + 3_000_000_000L); // blocked 3 s past the due tick
        assertEquals(3.0, delay.delaySeconds(), 1e-9);
        nanos.addAndGet(2_000_000_000L); // still blocked
        assertEquals(5.0, delay.delaySeconds(), 1e-9);
        delay.tick();
        assertEquals(0.0, delay.delaySeconds());
    }
}
