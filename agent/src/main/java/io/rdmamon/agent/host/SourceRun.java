package io.rdmamon.agent.host;

import io.rdmamon.protocol.model.SourceStatus;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One sample's run of the sources: their statuses in the order recorded, and how long each source took. Every read
 * goes through {@link #read}, which bounds it in time and records a throw the same way for every source: a failed
 * status of the source for the subject, {@code CULPRIT: EXCEPTION}. The bound is the watchdog's: each read is one
 * {@link ReadWatchdog#section}, so a source that hangs without reading (a loop, a lock) is left behind after five read
 * deadlines and skipped by later samples until it returns, like a blocked file. Caught: every {@link Exception} (a parser bug's
 * {@link NullPointerException}, an {@link java.io.UncheckedIOException}, a Jackson refusal), a
 * {@link StackOverflowError} (recursion over deep input) and a {@link LinkageError} (a native binding that cannot load);
 * other errors (out of memory, an assertion) are the JVM's and propagate.
 */
final class SourceRun {
    /** A source's read of one subject. */
    @FunctionalInterface
    interface Read<T> {
        T read() throws Exception;
    }

    private final ReadWatchdog watchdog;
    private final SourceFaults faults;
    private final List<SourceStatus> statuses = new ArrayList<>();
    private final Map<String, Long> nanosBySource = new LinkedHashMap<>();

    SourceRun(ReadWatchdog watchdog, SourceFaults faults) {
        this.watchdog = watchdog;
        this.faults = faults;
    }

    /** {@code read}'s result; {@code fallback} (and a failed status naming the culprit) when it throws. */
    <T> T read(Source source, String subject, T fallback, Read<T> read) {
        long start = System.nanoTime();
        try {
            return watchdog.section(source.name() + " " + subject, () -> {
                faults.before(source.name(), subject);
                return read.read();
            });
        } catch (Exception | StackOverflowError | LinkageError e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            statuses.add(SourceStatus.failed(source.name(), subject, source.culprit(subject) + ": " + e));
            return fallback;
        } finally {
            nanosBySource.merge(source.name(), System.nanoTime() - start, Long::sum);
        }
    }

    void add(SourceStatus status) {
        statuses.add(status);
    }

    List<SourceStatus> statuses() {
        return statuses;
    }

    /** Time spent in each source's reads this sample, by source, in the order first read. */
    Map<String, Duration> durations() {
        Map<String, Duration> durations = new LinkedHashMap<>();
        nanosBySource.forEach((source, nanos) -> durations.put(source, Duration.ofNanos(nanos)));
        return durations;
    }
}
