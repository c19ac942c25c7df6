package io.rdmamon.collector.ingest;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;

import java.util.ArrayDeque;
import java.util.concurrent.Callable;

/**
 * Paces the first message of every agent connection, its hello with the layout: a tree decode of about 33 KB of
 * JSON and the layout's plan, milliseconds of work each (tens while the JIT is cold), where a values frame takes
 * tens of microseconds. When a DaemonSet rollout reconnects 2,000 agents at once, those hellos on the event loops
 * kept them busy for seconds. Here they run on worker threads, at most {@code maxConcurrent} at a time, so that
 * the event loops keep serving the streams already admitted; further hellos wait their turn (their connections
 * read nothing meanwhile), and once the waiting hellos hold {@code maxWaitingBytes} a connection is told to come
 * back later (close 1013, which the agent answers with its jittered reconnect backoff). The bound is in bytes
 * because a waiting hello is held whole: 2,000 real ones are about 66 MB, while a flood of 4 MiB messages stops
 * at a few of them.
 *
 * <p>A finished decode starts the next waiting one from its worker thread: only results go through the home
 * context's queue, which is long while a storm's admitted streams catch up (one slot released through that queue
 * admitted 3 hellos a second in the bench). Thread-safe.
 */
final class HelloAdmission {
    private final Context home;
    private final int maxConcurrent;
    private final long maxWaitingBytes;
    private final ArrayDeque<Task<?>> waiting = new ArrayDeque<>();
    private long waitingBytes;
    /** Bytes of first messages still arriving (assembled from their WebSocket frames), bounded with the waiting ones. */
    private long receivingBytes;
    private int running;

    /** A decode and where its result goes. */
    private record Task<T>(long bytes, Callable<T> work, Promise<T> result) {
    }

    HelloAdmission(Context home, int maxConcurrent, long maxWaitingBytes) {
        if (maxConcurrent < 1 || maxWaitingBytes < 0) {
            throw new IllegalArgumentException("admission bounds: " + maxConcurrent + " concurrent, " + maxWaitingBytes
                    + " bytes waiting");
        }
        this.home = home;
        this.maxConcurrent = maxConcurrent;
        this.maxWaitingBytes = maxWaitingBytes;
    }

    /** Decodes at most this many hellos at once: the cores the decode loops do not need to themselves. */
    static int defaultConcurrency(int cores) {
        return Math.max(1, cores / 2);
    }

    /**
     * Runs {@code work} (the decode of a message of {@code bytes} bytes) on a worker when a slot is free; the future
     * completes on the home context. Fails at once with a {@link StreamRefusal} (1013), without running it, when
     * the hellos waiting already hold {@code maxWaitingBytes} with it.
     */
    <T> Future<T> submit(long bytes, Callable<T> work) {
        Task<T> task = new Task<>(bytes, work, Promise.promise());
        synchronized (this) {
            if (running >= maxConcurrent) {
                if (waitingBytes + receivingBytes + bytes > maxWaitingBytes) {
                    return Future.failedFuture(busy());
                }
                waiting.add(task);
                waitingBytes += bytes;
                return task.result().future();
            }
            running++;
        }
        start(task);
        return task.result().future();
    }

    private <T> void start(Task<T> task) {
        home.<T>executeBlocking(() -> {
            try {
                return task.work().call();
            } finally {
                next();
            }
        }, false).onComplete(task.result());
    }

    /** On the worker that finished a decode: its slot goes to the oldest waiting hello. */
    private void next() {
        Task<?> next;
        synchronized (this) {
            next = waiting.poll();
            if (next == null) {
                running--;
                return;
            }
            waitingBytes -= next.bytes();
        }
        start(next);
    }

    /**
     * {@code bytes} more of a first message arrived: held until {@link #received} unless the hellos arriving and
     * waiting would then hold more than {@code maxWaitingBytes} (false: the connection is to be told to come back).
     * A storm of connections sending their hellos at once buffers at most that much before any of them is admitted.
     */
    synchronized boolean receive(long bytes) {
        if (receivingBytes + waitingBytes + bytes > maxWaitingBytes) {
            return false;
        }
        receivingBytes += bytes;
        return true;
    }

    /** {@code bytes} of first messages, held by {@link #receive}, are no longer arriving (complete, or closed). */
    synchronized void received(long bytes) {
        receivingBytes -= bytes;
    }

    /** Hellos being decoded now. */
    synchronized int running() {
        return running;
    }

    /** Hellos waiting for a slot. */
    synchronized int waiting() {
        return waiting.size();
    }

    synchronized StreamRefusal busyReceiving() {
        return new StreamRefusal(StreamRefusal.TRY_AGAIN_LATER, StreamRefusal.BUSY, "collector busy: the hellos"
                + " arriving and waiting hold " + (receivingBytes + waitingBytes) / 1024 + " KiB; retry later");
    }

    private synchronized StreamRefusal busy() {
        return new StreamRefusal(StreamRefusal.TRY_AGAIN_LATER, StreamRefusal.BUSY, "collector busy: " + waiting.size()
                + " agents wait to be admitted; retry later");
    }
}
