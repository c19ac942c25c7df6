package io.rdmamon.agent.host;

import io.rdmamon.agent.kmsg.KernelEvent;
import io.rdmamon.agent.kmsg.KernelEventLog;
import io.rdmamon.agent.kmsg.KernelRecordFeed;
import io.rdmamon.protocol.exposition.NodeRenderer;
import io.rdmamon.protocol.model.HostSample;
import io.rdmamon.protocol.model.IbDevice;
import io.rdmamon.protocol.model.KernelEvents;
import io.rdmamon.protocol.model.PciFunction;
import io.rdmamon.protocol.model.SourceStatus;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class KmsgReadTest {

    private static final String CAPTURE = ""
            + "6,100,1000,-;rdma_rxe: loaded\n"
            + "2,101,2000,-;mlx5_core 0000:3b:00.0 ens1f0np0: NETDEV WATCHDOG: CPU: 3: transmit queue 2 timed out"
            + " 5120 ms\n SUBSYSTEM=net\n DEVICE=n4\n"
            + "3,105,3000,-;mlx5_core 0000:3b:00.1 mlx5_1: Fatal error 1 detected\n SUBSYSTEM=infiniband\n"
            + " DEVICE=+infiniband:mlx5_1\n"
            // what `echo '<2>mlx5_core …' > /dev/kmsg` leaves: facility 1, ignored
            + "10,106,4000,-;mlx5_core 0000:3b:00.1 mlx5_1: Fatal error 1 detected\n";

    @Test
    void theCaptureUnderTheRootIsReadAndPlacedOnPorts(@TempDir Path dir) throws IOException {
        Path root = Fixtures.copy("mlx5-roce", dir.resolve("root"));
        Files.writeString(root.resolve("kmsg"), CAPTURE);
        HostReader reader = HostReader.forRoot(root);
        HostSample sample = reader.read("n");

        assertTrue(sample.sources().contains(SourceStatus.ok("kmsg", "kmsg")), sample.sources().toString());
        KernelEvents kernel = sample.kernel();

        assertEquals(List.of(
                new KernelEvents.Count("driver_loaded", "info", "", "", 1),
                new KernelEvents.Count("firmware_fatal", "critical", "mlx5_1", "1", 1),
                new KernelEvents.Count("tx_timeout", "critical", "mlx5_0", "1", 1)), kernel.counts());
        assertEquals(3, kernel.overwritten()); // seq 102..104 never read
        assertEquals(List.of(100L, 101L, 105L), kernel.recent().stream().map(KernelEvents.Event::seq).toList());

        String exposition = new String(new NodeRenderer().render("n", sample).data(), StandardCharsets.UTF_8);
        assertTrue(exposition.contains("rdma_kernel_events_total{device=\"mlx5_1\",kind=\"firmware_fatal\",node=\"n\","
                + "port=\"1\",severity=\"critical\"} 1"), exposition);

        // read once: the next sample keeps the counts and reads nothing new
        assertEquals(kernel.counts(), reader.read("n").kernel().counts());
    }

    @Test
    void aRootWithoutCaptureHasNoKernelSource() throws IOException {
        HostSample sample = Fixtures.reader("mlx5-roce").read("n");
        assertNull(sample.kernel());
        assertTrue(sample.sources().stream().noneMatch(s -> s.source().equals("kmsg")));
    }

    @Test
    void withoutPrivilegeTheSourceIsUnsupportedAndNotTriedAgain() throws Exception {
        AtomicInteger polls = new AtomicInteger();
        KernelRecordFeed denied = new KernelRecordFeed() {
            @Override
            public Poll poll(int max) throws IOException {
                polls.incrementAndGet();
                throw new AccessDeniedException("/dev/kmsg", null, "Operation not permitted");
            }

            @Override
            public void close() {
            }
        };
        KmsgSource source = new KmsgSource(new KernelEventLog(denied), "/dev/kmsg", () -> 0, null);
        for (int i = 0; i < 2; i++) {
            HostSample sample = source.complete(new HostSample("n", 0, List.of(), List.of()),
                    new SourceRun(new ReadWatchdog(java.time.Duration.ofSeconds(1), 1, Object::toString), SourceFaults.NONE));
            assertNull(sample.kernel());
            assertEquals(1, sample.sources().size());
            SourceStatus status = sample.sources().get(0);
            assertEquals(SourceStatus.Outcome.UNSUPPORTED, status.outcome());
            assertTrue(status.reason().contains("CAP_SYSLOG"), status.toString());
        }
        assertEquals(1, polls.get());
    }

    @Test
    void aPciFunctionPlacesTheRecordOnItsDevice() {
        PciFunction pci = new PciFunction("0000:af:00.0", null, null, null, null, null, null, null, null, null, null);
        IbDevice device = new IbDevice("mlx5_2", 1, "CA", null, null, null, null, null, List.of(), pci);
        assertEquals(new KernelEventLog.Place("mlx5_2", ""),
                KmsgSource.place(List.of(device), new KernelEvent.Subject("0000:af:00.0", null, null)));
        assertEquals(KernelEventLog.Place.NOWHERE,
                KmsgSource.place(List.of(device), new KernelEvent.Subject("0000:b0:00.0", null, null)));
    }
}
