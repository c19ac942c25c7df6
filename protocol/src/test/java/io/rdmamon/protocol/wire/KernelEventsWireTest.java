package io.rdmamon.protocol.wire;

import io.rdmamon.protocol.model.KernelEvents;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The optional {@code kernel-events} frame: round trip, the exact body, bodies above the bounds refused. */
class KernelEventsWireTest {
    private final FrameCodec codec = new FrameCodec();

    static KernelEvents events(int counts, int recent, String text) {
        return new KernelEvents(1, 3,
                Collections.nCopies(counts, new KernelEvents.Count("tx_timeout", "critical", "mlx5_0", "1", 2)),
                Collections.nCopies(recent, new KernelEvents.Event(7, 1000, 42, 2, "tx_timeout", "critical", "mlx5_0",
                        "1", text)));
    }

    @Test
    void roundTripAndBody() throws FrameException {
        KernelEvents events = events(1, 1, "mlx5_core 0000:3b:00.0 eth2: NETDEV WATCHDOG: CPU: 3: transmit queue 2 timed out");
        byte[] bytes = codec.encode(new Frame.KernelEventsReport(events));
        assertEquals("{\"v\":3,\"type\":\"kernel-events\",\"table\":1,\"overwritten\":3,\"counts\":[{\"kind\":"
                + "\"tx_timeout\",\"severity\":\"critical\",\"device\":\"mlx5_0\",\"port\":\"1\",\"total\":2}],"
                + "\"recent\":[{\"seq\":7,\"ts\":1000,\"boot\":42,\"level\":2,\"kind\":\"tx_timeout\",\"severity\":"
                + "\"critical\",\"device\":\"mlx5_0\",\"port\":\"1\",\"text\":\"mlx5_core 0000:3b:00.0 eth2: NETDEV"
                + " WATCHDOG: CPU: 3: transmit queue 2 timed out\"}]}", new String(bytes, StandardCharsets.UTF_8));
        assertEquals(new Frame.KernelEventsReport(events), codec.decode(bytes));
    }

    @Test
    void bodiesAboveTheBoundsAreRefused() {
        for (KernelEvents tooMuch : List.of(events(KernelEvents.MAX_COUNTS + 1, 0, "x"),
                events(0, KernelEvents.MAX_RECENT + 1, "x"), events(0, 1, "x".repeat(KernelEvents.MAX_TEXT_CHARS + 1)))) {
            byte[] bytes = codec.encode(new Frame.KernelEventsReport(tooMuch));
            FrameException e = assertThrows(FrameException.class, () -> codec.decode(bytes));
            assertTrue(e.getMessage().contains("counts") || e.getMessage().contains("recent"), e.getMessage());
        }
    }
}
