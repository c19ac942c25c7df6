package io.rdmamon.collector.ingest;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Hellos decode on workers, a bounded number at once, in arrival order; past the waiting bytes, 1013. */
@ExtendWith(VertxExtension.class)
class HelloAdmissionTest {
    @Test
    void hellosRunOffTheLoopOneAtATimeInOrderAndTheOverflowIsToldToComeBack(Vertx vertx, VertxTestContext test) {
        Context home = vertx.getOrCreateContext();
        CountDownLatch release = new CountDownLatch(1);
        List<String> ran = new CopyOnWriteArrayList<>();
        home.runOnContext(v -> test.verify(() -> {
            HelloAdmission admission = new HelloAdmission(home, 1, 100);
            Future<String> first = admission.submit(60, () -> {
                assertFalse(Context.isOnEventLoopThread(), "a hello is decoded on a worker");
                assertTrue(release.await(10, TimeUnit.SECONDS));
                ran.add("first");
                return "first";
            });
            Future<String> second = admission.submit(60, () -> {
                ran.add("second");
                return "second";
            });
            Future<String> third = admission.submit(40, () -> {
                ran.add("third");
                return "third";
            });
            Future<String> refused = admission.submit(1, () -> {
                ran.add("refused");
                return "refused";
            });
            assertEquals(1, admission.running());
            // 60 + 40 bytes wait: the budget of 100 is spent, one more byte is refused without running
            assertEquals(2, admission.waiting());
            assertTrue(refused.failed());
            StreamRefusal busy = assertInstanceOf(StreamRefusal.class, refused.cause());
            assertEquals(StreamRefusal.TRY_AGAIN_LATER, busy.code());
            assertEquals(StreamRefusal.BUSY, busy.kind());
            assertTrue(busy.getMessage().startsWith("collector busy: 2 agents wait to be admitted"), busy.getMessage());
            release.countDown();
            Future.all(first, second, third).onComplete(test.succeeding(all -> test.verify(() -> {
                assertSame(home, Vertx.currentContext(), "results come back on the home loop");
                assertEquals(List.of("first", "second", "third"), ran);
                assertEquals(0, admission.running());
                assertEquals(0, admission.waiting());
                test.completeNow();
            })));
        }));
    }
}
