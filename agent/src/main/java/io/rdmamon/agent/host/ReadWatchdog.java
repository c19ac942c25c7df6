package io.rdmamon.agent.host;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Gives every blocking read of a sample a deadline. A sysfs PMA counter read is a MAD to the firmware
 * and an ethtool or verbs query a firmware command: on sick firmware they can block for ever, and no
 * Java interrupt wakes a thread blocked in {@code open(2)} or {@code read(2)} of such a file. A sample
 * that never returns stopped the agent's sampling for good, silently.
 *
 * <p>How: the whole sample runs on one reader thread (one hand-off per sample, none per file; the thread
 * is the same from sample to sample). Each read announces itself ({@link #watch}); the calling thread
 * waits for the sample and, when the read in progress passes the deadline, leaves that thread to its
 * read, marks the read's key stuck and runs the sample again on another thread. In that run and every
 * later one the stuck key is skipped at once with a {@link StuckReadException} (one problem line naming
 * the file) until its read returns; then it is read again. So a stuck file costs one deadline and one
 * thread once, not one per sample. The run that was left behind stops reading (every later read of it
 * fails at once) and its result is dropped.
 *
 * <p>Bounds: at most one outstanding read per key (the key is skipped while it is outstanding), so
 * reader threads are at most the stuck reads plus one; with {@code maxStuck} reads stuck the host is
 * not read at all (the sample says which reads are stuck) until one returns. Reader threads are daemons:
 * a stuck one never keeps the JVM alive.
 */
final class ReadWatchdog {
    /** A blocking operation under the deadline. */
    @FunctionalInterface
    interface Blocking<V, E extends Exception> {
        V call() throws E;
    }

    /** A read skipped because an earlier read of the same key is still blocked. */
    static final class StuckReadException extends IOException {
        StuckReadException(String message) {
            super(message);
        }
    }

    /**
     * One run of a sample on one reader thread, with the read it has in progress. Nothing is allocated per
     * read (a sample makes hundreds): the reader numbers its reads, writes the key and start of one, then
     * publishes its number in {@link #inFlight}. That read's fate is claimed once, by whoever decides it: the
     * reader when it returns ({@code number -> 0}) or the watchdog when it is stuck ({@code number -> -number}).
     */
    private static final class Attempt {
        /** The number of the read in progress; 0 for none, negative once the watchdog declared it stuck. */
        final AtomicLong inFlight = new AtomicLong();
        /** Key and start of the read {@link #inFlight} names; written before that number is published. */
        volatile Object readKey;
        volatile long readStartNanos;
        /** The number of the reader's last read; only the reader thread touches it. */
        long reads;
        /** Left behind at a stuck read: reads nothing more, its result is dropped. */
        volatile boolean abandoned;
        /**
         * Counts the reader's steps (a section or a read entered or left); the watchdog claims a hung section by
         * negating it, so a step after the claim knows it was left behind.
         */
        final AtomicLong progress = new AtomicLong(1);
        /** The innermost {@link #section} the reader is in; null outside any. */
        volatile Object sectionKey;
        /** The section the watchdog declared hung; only it removes its key from {@link #stuck} on return. */
        volatile Object hungSection;
    }

    /** One step of the reader; a no-op once the watchdog claimed the attempt for a hung section. */
    private static void progressed(Attempt attempt) {
        while (true) {
            long step = attempt.progress.get();
            if (step < 0 || attempt.progress.compareAndSet(step, step + 1)) {
                return;
            }
        }
    }

    private record Stuck(String label, long sinceNanos) {
    }

    private static final ThreadLocal<Attempt> CURRENT = new ThreadLocal<>();

    private final long deadlineNanos;
    /**
     * How long a {@link #section} may go without a step (no read started or ended, no inner section) before it is
     * hung: a source's own work between reads (parsing a bounded capture, walking a PCIe tree) takes milliseconds, so
     * five read deadlines without a step is a loop or a lock, not work.
     */
    private final long sectionDeadlineNanos;
    private final int maxStuck;
    private final Function<Object, String> label;
    private final Map<Object, Stuck> stuck = new ConcurrentHashMap<>();
    private final AtomicInteger threadsStarted = new AtomicInteger();
    /**
     * The reader thread of the samples, the same one from sample to sample (the common path starts no
     * thread). Replaced when left in a stuck read; the old one ends once that read returns.
     */
    private ExecutorService reader;

    /** @param label how a key is named in a problem (a file's path relative to the host root) */
    ReadWatchdog(Duration deadline, int maxStuck, Function<Object, String> label) {
        if (deadline.isNegative() || deadline.isZero() || maxStuck < 1) {
            throw new IllegalArgumentException("read deadline must be positive and max stuck reads at least 1, got "
                    + deadline + ", " + maxStuck);
        }
        this.deadlineNanos = deadline.toNanos();
        this.sectionDeadlineNanos = 5 * deadlineNanos;
        this.maxStuck = maxStuck;
        this.label = label;
        this.reader = newReader();
    }

    /** A new reader thread for the next samples; the old one ends once its current (stuck) read returns. */
    private void replaceReader() {
        reader.shutdown();
        reader = newReader();
    }

    private ExecutorService newReader() {
        return Executors.newSingleThreadExecutor(task -> {
            Thread thread = new Thread(task, "rdmamon-host-reader-" + threadsStarted.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        });
    }

    Duration deadline() {
        return Duration.ofNanos(deadlineNanos);
    }

    /** Reader threads started so far: one, plus one per read that got stuck (a skipped stuck read starts none). */
    int threadsStarted() {
        return threadsStarted.get();
    }

    /** Reads blocked past the deadline that have not returned yet. */
    int stuckReads() {
        return stuck.size();
    }

    /**
     * {@code sample} run on a reader thread under the deadline, again on a fresh thread after each read
     * that got stuck; {@code notRead} (given the reason) when {@code maxStuck} reads are stuck or the
     * caller is interrupted. Blocks the caller: call it from a worker thread. One sample at a time.
     */
    synchronized <T> T run(Supplier<T> sample, Function<String, T> notRead) {
        while (true) {
            if (stuck.size() >= maxStuck) {
                return notRead.apply(stuck.size() + " reads stuck (limit " + maxStuck + "), host not read until one returns: "
                        + String.join(", ", stuckLabels()));
            }
            Attempt attempt = new Attempt();
            Future<T> result = reader.submit(() -> {
                CURRENT.set(attempt);
                try {
                    return sample.get();
                } finally {
                    CURRENT.remove();
                }
            });
            try {
                if (awaitOrAbandon(attempt, result)) {
                    return result.get();
                }
            } catch (InterruptedException e) {
                attempt.abandoned = true;
                replaceReader(); // the next sample must not queue behind this one
                Thread.currentThread().interrupt();
                return notRead.apply("sample interrupted");
            } catch (ExecutionException e) {
                if (e.getCause() instanceof Error error) {
                    throw error;
                }
                throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
            }
        }
    }

    /** True when the attempt finished; false when it was left behind at a stuck read. */
    private boolean awaitOrAbandon(Attempt attempt, Future<?> result) throws InterruptedException, ExecutionException {
        long seenStep = 0;
        long seenAtNanos = 0;
        while (true) {
            long read = attempt.inFlight.get();
            Object key = attempt.readKey;
            long startNanos = attempt.readStartNanos;
            if (read > 0 && attempt.inFlight.get() != read) {
                continue; // the reader moved on while key and start were looked at: they may be the next read's
            }
            long now = System.nanoTime();
            if (read == 0) {
                long step = attempt.progress.get();
                if (step != seenStep) {
                    seenStep = step;
                    seenAtNanos = now;
                } else if (now - seenAtNanos >= sectionDeadlineNanos && claimHungSection(attempt, step, seenAtNanos)) {
                    return false;
                }
            }
            long waitNanos = read > 0 ? startNanos + deadlineNanos - now
                    : read == 0 ? Math.max(1, Math.min(deadlineNanos, seenAtNanos + sectionDeadlineNanos - now))
                    : deadlineNanos;
            if (read > 0 && waitNanos <= 0) {
                // published before the claim, so the reader's removal (after the claim) always follows it
                stuck.put(key, new Stuck(label.apply(key), startNanos));
                if (attempt.inFlight.compareAndSet(read, -read)) {
                    attempt.abandoned = true;
                    replaceReader();
                    return false;
                }
                stuck.remove(key); // it returned just in time
                continue;
            }
            try {
                result.get(waitNanos, TimeUnit.NANOSECONDS);
                return true;
            } catch (TimeoutException e) {
                // look at the read in progress again
            }
        }
    }

    /**
     * {@code op} under the deadline when called from a sample run by {@link #run}; plainly otherwise.
     *
     * @param key what is read (a file's path, a netdev): an earlier read of it still blocked skips this one
     * @throws StuckReadException when skipped (message says for how long it has been blocked), or when this
     *                            sample was left behind
     */
    <V, E extends Exception> V watch(Object key, Blocking<V, E> op) throws E, StuckReadException {
        Attempt attempt = CURRENT.get();
        if (attempt == null) {
            return op.call();
        }
        skipIfStuck(attempt, key);
        progressed(attempt);
        long read = ++attempt.reads;
        attempt.readKey = key;
        attempt.readStartNanos = System.nanoTime();
        attempt.inFlight.set(read);
        try {
            return op.call();
        } finally {
            if (!attempt.inFlight.compareAndSet(read, 0)) {
                // the watchdog declared it stuck and moved on: it has returned now, so the key may be read again
                stuck.remove(key);
                attempt.abandoned = true;
            }
            progressed(attempt);
        }
    }

    /**
     * Declares the section the reader has been in, without a step since {@code sinceNanos}, hung: its key is skipped
     * by later samples until it returns, and the attempt is left behind. False when the reader stepped meanwhile or is
     * in no section (the sample's own code between sources, which holds no lock and reads nothing).
     */
    private boolean claimHungSection(Attempt attempt, long step, long sinceNanos) {
        Object key = attempt.sectionKey;
        if (key == null) {
            return false;
        }
        // published before the claim, so the reader's removal (after the claim) always follows it
        stuck.put(key, new Stuck(label.apply(key), sinceNanos));
        attempt.hungSection = key;
        if (attempt.progress.compareAndSet(step, -step)) {
            attempt.abandoned = true;
            replaceReader();
            return true;
        }
        attempt.hungSection = null;
        stuck.remove(key);
        return false;
    }

    /**
     * {@code op}, a source's whole read of one subject, as one section: code that reads nothing itself (a parser in a
     * loop, a lock held by a stuck thread) is bounded too. A section that takes no step for five read deadlines is
     * declared hung like a stuck read: this sample is run again without it, and later samples skip it with a
     * {@link StuckReadException} until it returns. Sections nest; the innermost is the one blamed.
     */
    <V, E extends Exception> V section(Object key, Blocking<V, E> op) throws E, StuckReadException {
        Attempt attempt = CURRENT.get();
        if (attempt == null) {
            return op.call();
        }
        skipIfStuck(attempt, key);
        Object outer = attempt.sectionKey;
        attempt.sectionKey = key;
        progressed(attempt);
        try {
            return op.call();
        } finally {
            attempt.sectionKey = outer;
            if (attempt.progress.get() < 0 && key.equals(attempt.hungSection)) {
                stuck.remove(key); // the hung section returned at last: it may be read again
            } else {
                progressed(attempt);
            }
        }
    }

    /** Throws when {@code attempt} was left behind or {@code key} is stuck in an earlier one. */
    private void skipIfStuck(Attempt attempt, Object key) throws StuckReadException {
        if (attempt.abandoned) {
            throw new StuckReadException("not read: this sample was left behind at a stuck read");
        }
        Stuck blocked = stuck.isEmpty() ? null : stuck.get(key);
        if (blocked != null) {
            throw new StuckReadException(String.format("read stuck for %.1f s (deadline %.1f s), skipped until it returns",
                    (System.nanoTime() - blocked.sinceNanos()) / 1e9, deadlineNanos / 1e9));
        }
    }

    private List<String> stuckLabels() {
        return stuck.values().stream().map(Stuck::label).sorted().toList();
    }
}
