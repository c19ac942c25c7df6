package io.rdmamon.agent.probe;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The lines the simulated and stand-in perftest print, against perftest's own published output. */
class PerftestReportFormatTest {
    @Test
    void gidLinesArePrintedInDecimalBytesLikePerftest() {
        // NVIDIA gpu-operator-rdma.rst client sample (rdma-facts §6): GID of 192.168.2.226
        assertEquals(" GID: 00:00:00:00:00:00:00:00:00:00:255:255:192:168:02:226",
                PerftestReportFormat.gidLine("0000:0000:0000:0000:0000:ffff:c0a8:02e2"));
        assertEquals(" GID: 254:128:00:00:00:00:00:00:186:206:246:255:254:161:178:196",
                PerftestReportFormat.gidLine("fe80:0000:0000:0000:bace:f6ff:fea1:b2c4"));
        assertThrows(IllegalArgumentException.class, () -> PerftestReportFormat.gidLine("fe80::1"));
    }
}
