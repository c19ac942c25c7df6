package io.rdmamon.protocol.wire;

import io.rdmamon.protocol.model.NicHealthReporter;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The optional {@code devlink-health} frame: round trip, the exact body, bodies out of bounds refused. */
class DevlinkHealthWireTest {
    private final FrameCodec codec = new FrameCodec();

    @Test
    void roundTripAndBody() throws FrameException {
        List<NicHealthReporter> reporters = List.of(
                new NicHealthReporter("mlx5_0", "", "pci/0000:3b:00.0", "fw_fatal", "error", 1, 0, 1_200_000L),
                new NicHealthReporter("mlx5_0", "1", "pci/0000:3b:00.0/65535", "tx", "healthy", 0, 0, null));
        byte[] bytes = codec.encode(new Frame.DevlinkHealthReport(reporters));
        assertEquals("{\"v\":3,\"type\":\"devlink-health\",\"reporters\":[{\"device\":\"mlx5_0\",\"port\":\"\","
                + "\"handle\":\"pci/0000:3b:00.0\",\"reporter\":\"fw_fatal\",\"state\":\"error\",\"errors\":1,"
                + "\"recovers\":0,\"grace\":1200000},{\"device\":\"mlx5_0\",\"port\":\"1\",\"handle\":"
                + "\"pci/0000:3b:00.0/65535\",\"reporter\":\"tx\",\"state\":\"healthy\",\"errors\":0,\"recovers\":0}]}",
                new String(bytes, StandardCharsets.UTF_8));
        assertEquals(new Frame.DevlinkHealthReport(reporters), codec.decode(bytes));
    }

    @Test
    void tooManyReportersAreRefused() {
        byte[] bytes = codec.encode(new Frame.DevlinkHealthReport(Collections.nCopies(NicHealthReporter.MAX_PER_HOST + 1,
                new NicHealthReporter("mlx5_0", "", "pci/0000:3b:00.0", "fw", "healthy", 0, 0, null))));
        FrameException e = assertThrows(FrameException.class, () -> codec.decode(bytes));
        assertTrue(e.getMessage().contains("reporters"), e.getMessage());
    }

    @Test
    void anUnknownStateIsRefused() {
        byte[] bytes = ("{\"v\":3,\"type\":\"devlink-health\",\"reporters\":[{\"device\":\"\",\"port\":\"\",\"handle\":"
                + "\"pci/x\",\"reporter\":\"fw\",\"state\":\"sick\",\"errors\":0,\"recovers\":0}]}")
                .getBytes(StandardCharsets.UTF_8);
        FrameException e = assertThrows(FrameException.class, () -> codec.decode(bytes));
        assertTrue(e.getMessage().contains("state"), e.getMessage());
    }
}
