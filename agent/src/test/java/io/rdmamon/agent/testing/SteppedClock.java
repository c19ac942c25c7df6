package io.rdmamon.agent.testing;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/** A UTC clock that stands still until a test steps it: the readers' refresh intervals, checked to the second. */
public final class SteppedClock extends Clock {
    private Instant now;

    public SteppedClock(Instant start) {
        this.now = start;
    }

    public void step(Duration by) {
        now = now.plus(by);
    }

    public void stepSeconds(long seconds) {
        step(Duration.ofSeconds(seconds));
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        return this;
    }

    @Override
    public Instant instant() {
        return now;
    }
}
