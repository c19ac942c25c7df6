package io.rdmamon.agent.probe;

import io.rdmamon.protocol.probe.PerftestResult;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

/** Published perftest outputs (sources in src/test/resources/perftest/SOURCES.md) and perftest's error lines. */
class PerftestOutputParserTest {
    private static final double MIB_BITS = 1_048_576.0 * 8;

    static List<String> sample(String name) throws IOException {
        try (InputStream in = PerftestOutputParserTest.class.getResourceAsStream("/perftest/" + name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList();
        }
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({
            // file, size, iterations, peak, average (in the header's unit), msg rate [Mpps], bits per unit
            "nvidia-gpu-operator-client-gbits.txt, 8388608, 5000, 92.39, 92.39, 0.001377, 1e9",
            "mib-server-roce.txt, 65536, 5000, 11030.78, 11030.45, 0.176487, MiB",
            "mib-cpu-warning-interleaved.txt, 65536, 1000, 46567.34, 46557.03, 0.744912, MiB",
            "perftest-issue-65-mb.txt, 1024, 1000, 0.00, 920.13, 0.942218, MiB",
            "perftest-issue-273-gbits.txt, 8, 224958464, 0.00, 0.48, 7.498617, 1e9",
            "bidirectional-mib.txt, 65536, 279928, 0.00, 5830.79, 0.093293, MiB",
    })
    void publishedTablesGiveTheLastRowInBitsPerSecond(String file, long size, long iterations, double peak,
                                                      double average, double mpps, String unit) throws IOException {
        double bitsPerUnit = unit.equals("MiB") ? MIB_BITS : Double.parseDouble(unit);
        PerftestOutcome outcome = PerftestOutputParser.parse(sample(file));
        PerftestResult result = assertInstanceOf(PerftestOutcome.Measured.class, outcome).result();
        assertEquals(size, result.sizeBytes());
        assertEquals(iterations, result.iterations());
        assertEquals(peak * bitsPerUnit, result.peakBitsPerSecond(), 1e-3);
        assertEquals(average * bitsPerUnit, result.averageBitsPerSecond(), 1e-3);
        assertEquals(mpps * 1e6, result.messageRatePerSecond(), 1e-6);
    }

    @Test
    void mibAndOldMbHeadersAreTheSameBinaryUnit() {
        // perftest 4.5 printed "MB/sec" for what 24.07 renamed "MiB/sec": both 2^20 bytes (format_factor 0x100000)
        double old = bandwidth(" #bytes     #iterations    BW peak[MB/sec]    BW average[MB/sec]   MsgRate[Mpps]");
        double renamed = bandwidth(" #bytes     #iterations    BW peak[MiB/sec]    BW average[MiB/sec]   MsgRate[Mpps]");
        assertEquals(11_728.47 * 1_048_576 * 8, old, 1e-3);
        assertEquals(old, renamed);
    }

    private static double bandwidth(String header) {
        PerftestOutcome outcome = PerftestOutputParser.parse(List.of(header,
                " 65536      5000             11728.47            11728.47\t\t     0.187655"));
        return assertInstanceOf(PerftestOutcome.Measured.class, outcome).result().averageBitsPerSecond();
    }

    @Test
    void extendedSixDecimalRowBelowATenthOfAGigabit() {
        // REPORT_FMT_EXT (docs/reference/perftest.md): the form perftest switches to when the Gb/s average is < 0.1
        PerftestOutcome outcome = PerftestOutputParser.parse(List.of(PerftestReportFormat.HEADER_GBITS,
                " 2          5000             0.052311            0.048207\t\t     3.012937"));
        PerftestResult result = assertInstanceOf(PerftestOutcome.Measured.class, outcome).result();
        assertEquals(52_311_000, result.peakBitsPerSecond(), 1e-3);
        assertEquals(48_207_000, result.averageBitsPerSecond(), 1e-3);
    }

    @Test
    void theSharedWriterRoundTripsInBothRowForms() {
        for (double gbits : new double[]{93.71, 0.042}) {
            List<String> table = PerftestReportFormat.gbitsTable(65_536, 1_000, 0, gbits);
            PerftestResult result = assertInstanceOf(PerftestOutcome.Measured.class, PerftestOutputParser.parse(table))
                    .result();
            assertEquals(gbits * 1e9, result.averageBitsPerSecond(), 1e-3);
        }
    }

    @Test
    void noDeviceKeepsPerftestsThreeLinesVerbatim() throws IOException {
        PerftestOutcome.Failed failed = assertInstanceOf(PerftestOutcome.Failed.class,
                PerftestOutputParser.parse(sample("debian-4.5-no-device.txt")));
        assertEquals(PerftestFailure.NO_DEVICE, failed.kind());
        assertEquals(" Did not detect devices \n If device exists, check if driver is up\n"
                + " Unable to find the Infiniband/RoCE device", failed.text());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "DEVICE_NOT_FOUND | IB device mlx5_9 not found | ' Unable to find the Infiniband/RoCE device'",
            "CONNECT_FAILED | Couldn't connect to 192.168.1.2:18515 | ' Unable to init the socket connection'",
            "LISTEN_FAILED | Couldn't listen to port 18515 | ' Unable to init the socket connection'",
            "OTHER | ' Failed to create QP.' | ' Couldn''t create IB resources'",
    })
    void errorLinesAreClassifiedAndKept(PerftestFailure kind, String first, String second) {
        List<String> output = List.of(PerftestReportFormat.RESULT_LINE, "                    RDMA_Write BW Test",
                " Dual-port       : OFF\t\tDevice         : mlx5_0", first, second);
        PerftestOutcome.Failed failed = assertInstanceOf(PerftestOutcome.Failed.class, PerftestOutputParser.parse(output));
        assertEquals(kind, failed.kind());
        assertEquals(List.of(first, second), failed.lines());
    }

    @Test
    void aServerStoppedBeforeItsRowHasNoResultAndNoErrorLines() throws IOException {
        PerftestOutcome.Failed failed = assertInstanceOf(PerftestOutcome.Failed.class,
                PerftestOutputParser.parse(sample("perftest-issue-234-mb-server-no-row.txt")));
        assertEquals(PerftestFailure.OTHER, failed.kind());
        assertEquals(List.of(), failed.lines());
    }
}
