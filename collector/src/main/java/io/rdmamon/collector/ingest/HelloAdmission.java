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
 * at a few of them. Confined to the context it was made on
 * (the collector verticle's event loop).
 */
final class HelloAdmission {
    private final Context home;
    private final int maxConcurrent;
    private final long maxWaitingBytes;
    private final ArrayDeque<Waiting> waiting = new ArrayDeque<>();
    private long waitingBytes;
    private int running;

    private record Waiting(long bytes, Runnable start) {
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
        Promise<T> result = Promise.promise();
        Runnable start = () -> {
            running++;
            home.executeBlocking(work, false).onComplete(done -> {
                running--;
                Waiting next = waiting.poll();
                if (next != null) {
                    waitingBytes -= next.bytes();
                    next.start().run();
                }
                result.handle(done);
            });
        };
        if (running < maxConcurrent) {
            start.run();
        } else if (waitingBytes + bytes <= maxWaitingBytes) {
            waiting.add(new Waiting(bytes, start));
            waitingBytes += bytes;
        } else {
            result.fail(busy());
        }
        return result.future();
    }

    /** Hellos being decoded now. */
    int running() {
        return running;
    }

    /** Hellos waiting for a slot. */
    int waiting() {
        return waiting.size();
    }

    private StreamRefusal busy() {
        return new StreamRefusal(StreamRefusal.TRY_AGAIN_LATER, StreamRefusal.BUSY, "collector busy: " + waiting.size()
                + " agents wait to be admitted; retry later");
    }
}
