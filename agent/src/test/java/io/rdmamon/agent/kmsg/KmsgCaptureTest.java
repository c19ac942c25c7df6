package io.rdmamon.agent.kmsg;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

class KmsgCaptureTest {

    @Test
    void recordsWithContinuationLinesAndACutOne() {
        String capture = "6,1,10,-;rdma_rxe: loaded\n"
                + "3,2,20,-;mlx5_core 0000:3b:00.0: Fatal error 1 detected\n SUBSYSTEM=pci\n DEVICE=+pci:0000:3b:00.0\n"
                + "3,3" // cut where EPIPE cut it: no header, no record
                + "\n6,4,40,-;infiniband rxe0: set active\n SUBSYSTEM=infiniband\n DEVICE=+infiniband:rxe0";
        List<KmsgRecord> records = KmsgCapture.records(capture.getBytes(StandardCharsets.UTF_8));
        assertEquals(List.of(1L, 2L, 4L), records.stream().map(KmsgRecord::seq).toList());
        assertEquals("+pci:0000:3b:00.0", records.get(1).device());
        assertEquals("+infiniband:rxe0", records.get(2).device());
    }

    @Test
    void aBurstOfTenThousandRecords() {
        StringBuilder capture = new StringBuilder();
        for (int i = 0; i < 10_000; i++) {
            capture.append("4,").append(i).append(',').append(i * 10).append(",-;mlx5_core 0000:3b:00.0 eth2: NETDEV"
                    + " WATCHDOG: CPU: 1: transmit queue ").append(i % 8).append(" timed out 5000 ms\n SUBSYSTEM=net\n"
                    + " DEVICE=n4\n");
        }
        List<KmsgRecord> records = KmsgCapture.records(capture.toString().getBytes(StandardCharsets.UTF_8));
        assertEquals(10_000, records.size());
        assertEquals(10_000, records.stream().map(KernelEventPatterns::classify)
                .filter(e -> e != null && e.kind().equals("tx_timeout") && "eth2".equals(e.subject().netdev()))
                .count());
    }
}
