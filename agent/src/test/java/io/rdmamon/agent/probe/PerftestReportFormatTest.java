package io.rdmamon.agent.probe;

import io.rdmamon.protocol.probe.PerftestTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The lines the simulated and stand-in perftest print, against perftest's own published output. */
class PerftestReportFormatTest {
    @Test
    void gidLinesArePrintedInDecimalBytesLikePerftest() {
        // NVIDIA gpu-operator-rdma.rst client sample (docs/reference/perftest.md): GID of 192.168.2.226
        assertEquals(" GID: 00:00:00:00:00:00:00:00:00:00:255:255:192:168:02:226",
                PerftestReportFormat.gidLine("0000:0000:0000:0000:0000:ffff:c0a8:02e2"));
        assertEquals(" GID: 254:128:00:00:00:00:00:00:186:206:246:255:254:161:178:196",
                PerftestReportFormat.gidLine("fe80:0000:0000:0000:bace:f6ff:fea1:b2c4"));
        assertThrows(IllegalArgumentException.class, () -> PerftestReportFormat.gidLine("fe80::1"));
    }

    @ParameterizedTest(name = "%g of {0} is {1}")
    @CsvSource({
            // what glibc's printf("%g") prints for these doubles (checked with gcc on this machine)
            "0, 0",
            "1, 1",
            "2.5, 2.5",
            "2.50000001, 2.5",
            "0.0001, 0.0001",
            "0.00001, 1e-05",
            "123456.7, 123457",
            "999999.4, 999999",
            "999999.5, 1e+06",
            "1073741.824, 1.07374e+06",
            "33554.432, 33554.4",
            "4294967296, 4.29497e+09",
            "1.0000005, 1",
    })
    void formatGIsCsPercentG(double value, String printed) {
        assertEquals(printed, PerftestReportFormat.formatG(value));
    }

    @Test
    void latencyTableIsPrintReportLatsLayout() {
        List<String> table = PerftestReportFormat.latencyTable(64, 6, List.of(2.5, 2.4, 2.6, 33556.4, 2.5));
        assertEquals(List.of(PerftestReportFormat.RESULT_LINE, PerftestReportFormat.HEADER_LATENCY, "#, usec",
                "1, 2.5", "2, 2.4", "3, 2.6", "4, 33556.4", "5, 2.5", PerftestReportFormat.RESULT_LINE,
                PerftestReportFormat.HEADER_LATENCY), table.subList(0, 10));
        // the statistics leave out the two slowest (LAT_MEASURE_TAIL): min 2.40, max (the first left out) 2.60,
        // median of 2.40 2.50 2.50, average 2.47
        // what gcc/glibc print for REPORT_FMT_LAT with these values
        assertEquals(" 64      6          2.40           2.60         2.50     \t       2.47        \t0.05   \t\t2.60    \t\t2.60   ",
                table.get(10));
        assertEquals(PerftestReportFormat.RESULT_LINE, table.get(11));
    }

    @Test
    void latencyBannerIsSendLatencysWithTheEventsLine() {
        PerftestCommandLine client = PerftestCommandLine.parse(List.of("-d", "mlx5_0", "-n", "100", "-e", "-U",
                "192.168.1.2"));
        List<String> banner = PerftestReportFormat.banner(PerftestTest.SEND_LAT, client, "Ethernet", 3);
        assertEquals("                    Send Latency Test", banner.get(1));
        assertEquals(" Test with events. Using mlx5_0_comp0", banner.get(2));
        assertTrue(banner.contains(" TX depth        : 1"));
        assertFalse(banner.stream().anyMatch(line -> line.startsWith(" CQ Moderation")), "a BW-only line");
        PerftestCommandLine server = PerftestCommandLine.parse(List.of("-d", "mlx5_0", "-n", "100"));
        assertTrue(PerftestReportFormat.banner(PerftestTest.SEND_LAT, server, "IB", null).contains(" RX depth        : 512"));
    }
}
