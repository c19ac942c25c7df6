package io.rdmamon.agent.probe;

import io.rdmamon.protocol.probe.LatencyResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code ib_send_lat -U} outputs written out from perftest's printf formats at v4.5-0.17 (Debian's):
 * ctx_print_test_info (src/perftest_parameters.c line 3158) for the banner, send_lat.c lines 401-403 for the header
 * printed before the run, print_report_lat (perftest_parameters.c line 3678) for {@code "#, usec"} and its
 * {@code "%d, %g"} lines, RESULT_FMT_LAT and REPORT_FMT_LAT (src/perftest_parameters.h lines 212 and 246) for the
 * summary, send_lat.c line 467 for the closing RESULT_LINE.
 */
class PerftestLatencyOutputParserTest {
    private static final String LINE = PerftestReportFormat.RESULT_LINE;
    private static final String HEADER = " #bytes #iterations    t_min[usec]    t_max[usec]  t_typical[usec]    t_avg[usec]"
            + "    t_stdev[usec]   99% percentile[usec]   99.9% percentile[usec] ";
    private static final String CPU_WARNING =
            "Conflicting CPU frequency values detected: 3295.212000 != 4999.302000. CPU Frequency is not max.";
    private static final List<String> CLIENT_BANNER = List.of(LINE,
            "                    Send Latency Test",
            " Test with events. Using mlx5_0_comp0",
            " Dual-port       : OFF\t\tDevice         : mlx5_0",
            " Number of qps   : 1\t\tTransport type : IB",
            " Connection type : RC\t\tUsing SRQ      : OFF",
            " PCIe relax order: ON",
            " ibv_wr* API     : ON",
            " TX depth        : 1",
            " Mtu             : 1024[B]",
            " Link type       : Ethernet",
            " GID index       : 3",
            " Max inline data : 236[B]",
            " rdma_cm QPs\t : OFF",
            " Data ex. method : Ethernet",
            LINE,
            " local address: LID 0000 QPN 0x0108 PSN 0x3f1c2a",
            " GID: 00:00:00:00:00:00:00:00:00:00:255:255:192:168:01:02",
            " remote address: LID 0000 QPN 0x0109 PSN 0x8a7e11",
            " GID: 00:00:00:00:00:00:00:00:00:00:255:255:192:168:01:03",
            LINE,
            HEADER);
    /** Five measured exchanges of {@code -n 6}: plain, a retransmission at -u 13 and one at -u 18 (%g's e+06). */
    private static final List<String> ROUND_TRIPS = List.of("#, usec", "1, 2.51", "2, 2.48", "3, 33556.4", "4, 2.5",
            "5, 1.07374e+06");
    private static final List<String> SUMMARY = List.of(LINE, HEADER,
            " 64      6          2.48           33556.40      2.50  \t       11187.13     \t15817.08\t\t33556.40 \t\t33556.40",
            LINE);
    /** The round trips in nanoseconds: twice what perftest prints (its rtt_factor 2), rounded. */
    private static final List<Long> NANOS = List.of(5_020L, 4_960L, 67_112_800L, 5_000L, 2_147_480_000L);

    private static List<String> output(List<String> banner, List<String> roundTrips) {
        List<String> lines = new ArrayList<>(banner);
        lines.addAll(roundTrips);
        lines.addAll(SUMMARY);
        return lines;
    }

    private static LatencyResult measured(List<String> lines) {
        return assertInstanceOf(PerftestOutcome.MeasuredLatency.class, PerftestLatencyOutputParser.parse(lines))
                .latency();
    }

    @Test
    void clientOutputGivesEveryRoundTripDoubledInNanoseconds() {
        LatencyResult result = measured(output(CLIENT_BANNER, ROUND_TRIPS));
        assertEquals(64, result.sizeBytes());
        assertEquals(6, result.iterations());
        assertEquals(NANOS, result.rttNanos());
    }

    @Test
    void serverBannerAndCpuWarningsAnywhereAreSkipped() {
        List<String> banner = new ArrayList<>(CLIENT_BANNER);
        banner.set(banner.indexOf(" TX depth        : 1"), " RX depth        : 512");
        banner.add(1, CPU_WARNING);
        List<String> roundTrips = new ArrayList<>(ROUND_TRIPS);
        roundTrips.add(1, CPU_WARNING);
        roundTrips.add(4, CPU_WARNING);
        assertEquals(NANOS, measured(output(banner, roundTrips)).rttNanos());
    }

    @ParameterizedTest(name = "%g {0} is {1} ns")
    @CsvSource({
            "0, 0",
            "1, 2000",
            "2.5, 5000",
            "0.0001, 0",           // below a nanosecond: rounds to 0
            "0.0004, 1",
            "1e-05, 0",
            "123457, 246914000",
            "1.07374e+06, 2147480000",
            "4.29497e+09, 8589940000000",
    })
    void everyFormOfPercentGIsRead(String printed, long nanos) {
        List<String> lines = output(CLIENT_BANNER, List.of("#, usec", "1, " + printed));
        assertEquals(List.of(nanos), measured(lines).rttNanos());
    }

    @Test
    void theLastTableCounts() {
        List<String> lines = output(CLIENT_BANNER, ROUND_TRIPS);
        lines.addAll(List.of("#, usec", "1, 3", "2, 4"));
        lines.addAll(SUMMARY);
        assertEquals(List.of(6_000L, 8_000L), measured(lines).rttNanos());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            // what went wrong | round-trip lines ('/' separated) | the line kept as the failure's
            "a list whose start was lost (a short output tail) | 3, 2.5/4, 2.5 | 3, 2.5",
            "a gap in the numbering | 1, 2.5/3, 2.5 | 3, 2.5",
            "a value that is not a number among numbers | 1, 2.5/2, nan | 2, nan",
            "inf after numbers | 1, 2.5/2, inf | 2, inf",
            "a number after inf | 1, inf/2, 2.5 | 2, 2.5",
            "a gap in an untimed list | 1, inf/3, inf | 3, inf",
    })
    void roundTripsThatCannotAllBeReadAreNoResult(String what, String roundTrips, String kept) {
        List<String> list = new ArrayList<>(List.of("#, usec"));
        list.addAll(List.of(roundTrips.split("/")));
        PerftestOutcome.Failed failed = assertInstanceOf(PerftestOutcome.Failed.class,
                PerftestLatencyOutputParser.parse(output(CLIENT_BANNER, list)));
        assertEquals(PerftestFailure.OTHER, failed.kind());
        assertTrue(failed.lines().contains(kept), failed.lines().toString());
    }

    /**
     * CI's Soft-RoCE lab under TCG: perftest's clock calibration failed (stderr, unbuffered, came first), it divided
     * every interval and the summary by a zero frequency, and exited 0 (send_lat.c returns SUCCESS after the report).
     */
    @Test
    void aCompleteListOfInfIsUntimedWithPerftestsReason() {
        List<String> lines = new ArrayList<>(List.of("Correlation coefficient r^2: 0.144153 < 0.9"));
        lines.addAll(CLIENT_BANNER);
        lines.add("#, usec");
        for (int i = 1; i <= 19; i++) {
            lines.add(i + ", " + (i % 2 == 0 ? "inf" : "-nan"));
        }
        lines.addAll(List.of(LINE, HEADER, " 20      20          inf            inf          inf     \t       inf     "
                + " \tinf    \t\tinf    \t\tinf    ", LINE));
        LatencyResult result = measured(lines);
        assertEquals(List.of(), result.rttNanos());
        assertEquals(20, result.iterations());
        assertEquals(20, result.sizeBytes());
        assertEquals("perftest could not time the round trips (its CPU clock calibration failed): "
                + "Correlation coefficient r^2: 0.144153 < 0.9", result.untimed());
        // a timed table after it (a repeated run) counts, untimed no more
        lines.addAll(List.of("#, usec", "1, 3"));
        lines.addAll(SUMMARY);
        assertEquals(null, measured(lines).untimed());
        assertEquals(List.of(6_000L), measured(lines).rttNanos());
    }

    @Test
    void aSummaryWithoutTheListOrAListWithoutTheSummaryIsNoResult() {
        // without -U perftest prints the summary only: the round trips the pingmesh needs are not there
        PerftestOutcome.Failed noList = assertInstanceOf(PerftestOutcome.Failed.class,
                PerftestLatencyOutputParser.parse(output(CLIENT_BANNER, List.of())));
        assertEquals(List.of(), noList.lines());
        // killed while printing: the summary row never came
        List<String> cut = new ArrayList<>(CLIENT_BANNER);
        cut.addAll(ROUND_TRIPS.subList(0, 3));
        assertInstanceOf(PerftestOutcome.Failed.class, PerftestLatencyOutputParser.parse(cut));
    }

    @Test
    void debianPerftestWithoutDevicesKeepsItsLines() throws IOException {
        PerftestOutcome.Failed failed = assertInstanceOf(PerftestOutcome.Failed.class,
                PerftestLatencyOutputParser.parse(PerftestOutputParserTest.sample("debian-4.5-no-device.txt")));
        assertEquals(PerftestFailure.NO_DEVICE, failed.kind());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            // captured from Debian perftest 4.5+0.17 ib_send_lat on this machine, and perftest's socket errors
            "OTHER | ' Iteration num should be between 5 and 100000000' | ' Parser function exited with Error'",
            "CONNECT_FAILED | Couldn't connect to 192.168.1.3:18600 | ' Unable to init the socket connection'",
            "LISTEN_FAILED | Couldn't listen to port 18600 | ' Unable to init the socket connection'",
    })
    void errorLinesAreClassifiedLikeTheBandwidthTests(PerftestFailure kind, String first, String second) {
        PerftestOutcome.Failed failed = assertInstanceOf(PerftestOutcome.Failed.class,
                PerftestLatencyOutputParser.parse(List.of(first, second)));
        assertEquals(kind, failed.kind());
        assertEquals(List.of(first, second), failed.lines());
    }

    @Test
    void theSharedWriterRoundTripsThroughTheParser() {
        List<String> table = PerftestReportFormat.latencyTable(2, 5, List.of(1.25, 2.0, 33554.432, 1.5));
        // %g keeps six digits: 33554.432 prints as 33554.4
        assertEquals(List.of(2_500L, 4_000L, 67_108_800L, 3_000L), measured(table).rttNanos());
        assertEquals(5, measured(table).iterations());
    }

    @Test
    void roundTripLinesAreToldApartFromTheRest() {
        assertTrue(PerftestLatencyOutputParser.isRoundTrip("12, 2.5"));
        assertFalse(PerftestLatencyOutputParser.isRoundTrip("#, usec"));
        assertFalse(PerftestLatencyOutputParser.isRoundTrip(SUMMARY.get(2)));
    }
}
