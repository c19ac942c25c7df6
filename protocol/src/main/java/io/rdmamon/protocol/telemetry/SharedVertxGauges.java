package io.rdmamon.protocol.telemetry;

import java.util.logging.Filter;
import java.util.logging.Logger;

/**
 * Keeps Micrometer from warning about the gauges vertx-micrometer-metrics registers again by design.
 *
 * <p>vertx-micrometer-metrics (5.0) backs its gauges (event-bus handlers and pending messages, HTTP active requests,
 * ...) with one {@code LongAdder} per meter id, shared through a map, and registers the gauge again each time a new
 * handler, request or connection takes a share of it ({@code io.vertx.micrometer.impl.meters.LongGaugeBuilder}):
 * with the event bus's address label off (rdmamon keeps labels bounded), the collector's second local consumer
 * already reuses the id of {@code vertx.eventbus.handlers}. The value is right, as the adder is shared; but Micrometer
 * (since 1.13.13, {@code MeterRegistry#checkAndWarnAboutDoubleRegistration}) logs "This Gauge has been already
 * registered" on the first such re-registration at WARN, which every {@code rdmamon collector} and {@code rdmamon
 * demo} printed at start. This filter drops that message for {@code vertx.*} meters only: a gauge of rdmamon's own
 * registered twice (a real mistake, its second state ignored) still reaches the log, though at debug level once
 * Micrometer has spent its one WARN on a Vert.x gauge (SharedVertxGaugesTest watches both at every level).
 */
final class SharedVertxGauges {
    /** The logger Micrometer's registry logs double registrations on (through java.util.logging). */
    static final String LOGGER = "io.micrometer.core.instrument.MeterRegistry";
    private static final String VERTX_GAUGE_AGAIN = "has been already registered (MeterId{name='vertx.";

    /** Held: java.util.logging keeps loggers weakly, and a collected one would come back without the filter. */
    private static final Logger MICROMETER = Logger.getLogger(LOGGER);

    private SharedVertxGauges() {
    }

    /** Whether Micrometer's log {@code message} is the re-registration of a gauge of Vert.x's own. */
    static boolean isVertxGaugeAgain(String message) {
        return message != null && message.contains(VERTX_GAUGE_AGAIN);
    }

    /** Installs the filter on Micrometer's registry logger, before any filter already there. */
    static synchronized void install() {
        Filter previous = MICROMETER.getFilter();
        if (previous instanceof DropVertxGaugeAgain) {
            return;
        }
        MICROMETER.setFilter(new DropVertxGaugeAgain(previous));
    }

    private record DropVertxGaugeAgain(Filter next) implements Filter {
        @Override
        public boolean isLoggable(java.util.logging.LogRecord record) {
            return !isVertxGaugeAgain(record.getMessage()) && (next == null || next.isLoggable(record));
        }
    }
}
