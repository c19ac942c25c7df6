package io.rdmamon.protocol.telemetry;

import io.micrometer.core.instrument.Gauge;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.eventbus.MessageConsumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

import static io.rdmamon.protocol.testing.Waits.await;
import static io.rdmamon.protocol.testing.Waits.waitFor;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A Vert.x reporting to the process's registry logs no "Gauge has been already registered" (the WARN every collector
 * and demo printed at start), its shared gauges still count right, and rdmamon's own double registration still logs.
 */
class SharedVertxGaugesTest {
    private static final String AGAIN = "has been already registered";
    private final Logger micrometer = Logger.getLogger(SharedVertxGauges.LOGGER);
    private final List<String> logged = new CopyOnWriteArrayList<>();
    private final Handler capture = new Handler() {
        @Override
        public void publish(LogRecord record) {
            logged.add(record.getLevel() + " " + record.getMessage());
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    };
    private Level level;
    private Vertx vertx;

    @BeforeEach
    void captureMicrometersLog() {
        level = micrometer.getLevel();
        micrometer.setLevel(Level.ALL); // after the first WARN Micrometer says it again at debug level
        micrometer.addHandler(capture);
    }

    @AfterEach
    void restore() throws Exception {
        micrometer.removeHandler(capture);
        micrometer.setLevel(level);
        if (vertx != null) {
            await(vertx.close());
        }
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "This Gauge has been already registered (MeterId{name='vertx.eventbus.handlers', tags=[]}), the registration will be ignored. Note that subsequent logs will be logged at debug level.|true",
            "This Gauge has been already registered (MeterId{name='vertx.http.server.active.requests', tags=[tag(method=GET)]}), the registration will be ignored.|true",
            "This Gauge has been already registered (MeterId{name='rdmamon.agent.replay.depth', tags=[]}), the registration will be ignored.|false",
            "This Gauge has been already registered (MeterId{name='jvm.vertx.like', tags=[]}), the registration will be ignored.|false",
            "Using java.util.logging as the default logging framework|false"})
    void dropsOnlyTheReRegistrationOfVertxGauges(String message, boolean dropped) {
        assertEquals(dropped, SharedVertxGauges.isVertxGaugeAgain(message));
    }

    @Test
    void severalEventBusConsumersLogNothingAndAreCounted() throws Exception {
        vertx = ProcessTelemetry.process().vertx(new VertxOptions());
        double before = handlers(); // other Vert.x of this test JVM may hold consumers on the process registry
        AtomicInteger received = new AtomicInteger();
        List<MessageConsumer<Object>> consumers = List.of(
                vertx.eventBus().consumer("test.shared-gauges.a", m -> received.incrementAndGet()),
                vertx.eventBus().consumer("test.shared-gauges.b", m -> received.incrementAndGet()),
                vertx.eventBus().consumer("test.shared-gauges.c", m -> received.incrementAndGet()));
        for (MessageConsumer<Object> consumer : consumers) {
            await(consumer.completion());
        }
        vertx.eventBus().send("test.shared-gauges.b", "hello");
        waitFor(() -> received.get() == 1, "the message delivered");

        assertEquals(before + 3, handlers(), "the shared gauge counts each consumer");
        assertTrue(logged.stream().noneMatch(line -> line.contains(AGAIN)), "logged: " + logged);
    }

    /** {@code vertx.eventbus.handlers}: the consumers the process's Vert.x hold, 0 before the first. */
    private static double handlers() {
        Gauge gauge = ProcessTelemetry.process().meters().find("vertx.eventbus.handlers").gauge();
        return gauge == null ? 0 : gauge.value();
    }

    @Test
    void aGaugeOfRdmamonsOwnRegisteredTwiceStillLogs() {
        ProcessTelemetry.process().builder(new VertxOptions()); // installs the filter, as every rdmamon Vert.x does
        Gauge.builder("rdmamon.test.shared.gauges", () -> 1).register(ProcessTelemetry.process().meters());
        Gauge.builder("rdmamon.test.shared.gauges", () -> 2).register(ProcessTelemetry.process().meters());
        assertTrue(logged.stream().anyMatch(line -> line.contains(AGAIN + " (MeterId{name='rdmamon.test.shared.gauges'")),
                "logged: " + logged);
    }
}
