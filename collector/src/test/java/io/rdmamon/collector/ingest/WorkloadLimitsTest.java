package io.rdmamon.collector.ingest;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.rdmamon.protocol.model.PortWorkload;
import io.rdmamon.protocol.model.RdmaResources;
import io.rdmamon.protocol.wire.Frame;
import io.rdmamon.protocol.wire.HostLayout;

/** A workload's texts become label values: printable and bounded, or the layout is refused naming the field. */
class WorkloadLimitsTest {
    private final FrameLimits limits = new FrameLimits(IngestLimits.defaults());

    private static Frame layout(String pod) {
        RdmaResources resources = new RdmaResources(Map.of(), List.of(), 0).withWorkloads(List.of(
                new PortWorkload(1, "ml", pod, null, "python3", PortWorkload.PROCESS, null, 3)));
        return new Frame.LayoutChange(2, new HostLayout(List.of(new HostLayout.DeviceLayout("rxe0", 1, "CA", null,
                null, null, null, null, List.of(), null, resources))));
    }

    @Test
    void aPrintablePodPassesAndAnUnprintableOneIsRefusedNamingItsField() {
        assertDoesNotThrow(() -> limits.check(layout("train-llama-0")));

        StreamRefusal refusal = assertThrows(StreamRefusal.class, () -> limits.check(layout("train\u001b[2J")));

        assertTrue(refusal.getMessage().startsWith("layout.layout.devices[0].resources.workloads[0].pod "),
                refusal.getMessage());
    }
}
