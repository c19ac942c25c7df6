package io.rdmamon.collector;

import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.vertx.core.Vertx;

import java.util.function.LongSupplier;

/**
 * {@code rdmamon_collector_event_loop_delay_seconds}: how late the collector's event loop runs a task due now. A timer
 * ticks every {@link #TICK_MILLIS} on the verticle's loop; the gauge, read at scrape time on another thread, is how far
 * past its due time the next tick is (0 while ticks come on time). A loop blocked by a long task therefore shows its
 * delay growing while it is blocked, not only once it is free again, which is when the self alert must already fire.
 */
final class EventLoopDelay {
    static final long TICK_MILLIS = 250;
    private final LongSupplier nanoClock;
    private volatile long lastTickNanos;

    EventLoopDelay(LongSupplier nanoClock) {
        this.nanoClock = nanoClock;
        this.lastTickNanos = nanoClock.getAsLong();
    }

    /** Ticks on {@code vertx}'s current context (call it from the verticle's start) and registers the gauge. */
    static EventLoopDelay start(Vertx vertx, PrometheusRegistry registry) {
        EventLoopDelay delay = new EventLoopDelay(System::nanoTime);
        vertx.setPeriodic(TICK_MILLIS, id -> delay.tick());
        GaugeWithCallback.builder().name("rdmamon_collector_event_loop_delay_seconds")
                .help("How late the collector's event loop runs a task due now (0 on time); a blocked loop grows it")
                .callback(cb -> cb.call(delay.delaySeconds())).register(registry);
        return delay;
    }

    void tick() {
        lastTickNanos = nanoClock.getAsLong();
    }

    double delaySeconds() {
        long late = nanoClock.getAsLong() - lastTickNanos - TICK_MILLIS * 1_000_000;
        return Math.max(0, late) / 1e9;
    }
}
