package io.rdmamon.protocol.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.BitSet;
import java.util.Collections;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.rdmamon.protocol.model.PortWorkload;
import io.rdmamon.protocol.model.RdmaResources;
import io.rdmamon.protocol.model.SourceStatus;
import io.rdmamon.protocol.probe.ProbePhase;
import io.rdmamon.protocol.probe.ProbeRole;
import io.rdmamon.protocol.text.WireLimits;

/** The agent's choke point leaves clean frames alone and makes a hostile host's text fit one frame. */
class HostTextFramesTest {
    private static Frame.LayoutChange layout(PortWorkload workload) {
        RdmaResources resources = new RdmaResources(Map.of(), List.of(), 0).withWorkloads(List.of(workload));
        return new Frame.LayoutChange(2, new HostLayout(List.of(new HostLayout.DeviceLayout("mlx5_0", 1, "CA", null,
                null, null, null, null, List.of(), null, resources))));
    }

    @Test
    void cleanFramesAreSentAsTheyAre() {
        Frame values = new Frame.Values(1, 1, 1, new long[] {7}, new BitSet(),
                List.of(SourceStatus.failed("sysfs", "mlx5_0", "read /sys/class/infiniband/mlx5_0/ports/1/rate: EIO")));
        Frame report = new Frame.ProbeReport("p-1", ProbeRole.CLIENT, ProbePhase.FAILED, 0, null, 1, "no peer",
                List.of("Couldn't connect to 10.0.0.2:18515"));
        Frame layout = layout(new PortWorkload(1, "ml", "train-0", "worker", "python3", PortWorkload.PROCESS, null, 4));
        Frame heartbeat = new Frame.Heartbeat(5);

        for (Frame frame : List.of(values, report, layout, heartbeat)) {
            assertSame(frame, HostTextFrames.sanitize(frame), frame.toString());
        }
    }

    @Test
    void aWorkloadsCommReasonAndEmptyNameAreMadeLabels() {
        String kubeletError = "class java.lang.String cannot be cast to class java.util.Map ".repeat(5)
                + "\n at [Source: (String)\"{\"; line: 1]";
        Frame.LayoutChange sanitised = (Frame.LayoutChange) HostTextFrames.sanitize(
                layout(new PortWorkload(1, null, "", null, "py\u001b[31mthon", PortWorkload.NONE, kubeletError, 1)));

        PortWorkload w = sanitised.layout().devices().get(0).resources().workloads().get(0);
        assertEquals("py\\u001b[31mthon", w.comm());
        assertEquals("?", w.pod());
        assertEquals(WireLimits.MAX_NAME_CHARS, w.reason().length());
        assertTrue(w.reason().endsWith("…"), w.reason());
    }

    @Test
    void aPerftestOutputOfHugeEscapedLinesFitsOneFrame() {
        String line = "\u001b[31m" + "x".repeat(10_000_000);
        Frame report = new Frame.ProbeReport("p-1", ProbeRole.CLIENT, ProbePhase.FAILED, 0, null, 1, line,
                Collections.nCopies(300, line));

        Frame.ProbeReport sanitised = (Frame.ProbeReport) HostTextFrames.sanitize(report);

        assertEquals(WireLimits.MAX_PROBE_OUTPUT_LINES, sanitised.output().size());
        assertTrue(sanitised.error().startsWith("\\u001b[31mxxx"), sanitised.error());
        assertTrue(new FrameCodec().encode(sanitised).length < WireFormat.DEFAULT_MAX_FRAME_BYTES);
    }
}
