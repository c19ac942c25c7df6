package io.rdmamon.agent.bench;

import org.junit.jupiter.api.Test;

import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The bench's count of blocked event loops, from Vert.x's warnings as JDK 17 and later JDKs print thread names. */
class BlockedLoopsTest {
    @Test
    void aBlockIsCountedOnceAtItsLongestPerThreadAndWorkerWarningsAreNotLoops() {
        BlockedLoops loops = BlockedLoops.of(Stream.of(
                "Nov 23, 2026 9:59:35 PM io.vertx.core.impl.BlockedThreadChecker",
                "WARNING: Thread vert.x-eventloop-thread-2 has been blocked for 116 ms, time limit is 100 ms",
                "io.vertx.core.VertxException: Thread blocked",
                "WARNING: Thread vert.x-eventloop-thread-2 has been blocked for 166 ms, time limit is 100 ms",
                "WARNING: Thread Thread[#31,vert.x-eventloop-thread-1,5,main] has been blocked for 104 ms, time limit is 100 ms",
                "WARNING: Thread vert.x-eventloop-thread-2 has been blocked for 102 ms, time limit is 100 ms",
                "WARNING: Thread vert.x-worker-thread-3 has been blocked for 61000 ms, time limit is 60000 ms",
                "\tat app//io.rdmamon.collector.store.NodeStore.expire(NodeStore.java:273)"), 10);
        // thread-2: 116 → 166 is one block, 102 starts another; thread-1 one block; the worker is no event loop
        assertEquals(new BlockedLoops(4, 3, 166, 18), loops);
        assertEquals(new BlockedLoops(0, 0, 0, 0), BlockedLoops.of(Stream.of(), 0));
    }
}
