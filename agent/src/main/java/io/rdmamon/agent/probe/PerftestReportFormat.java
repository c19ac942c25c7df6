package io.rdmamon.agent.probe;

import io.rdmamon.protocol.probe.PerftestTest;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * perftest's ({@code ib_write_bw}, {@code ib_send_lat}) printed output, line by line, for the programs that stand
 * in for it: the demo's simulated perftest and the tests' stand-in. Formats from docs/reference/perftest.md
 * ({@code RESULT_LINE}, the {@code --report_gbits} header, {@code REPORT_FMT} and its 6-decimal
 * {@code REPORT_FMT_EXT} form when the Gb/s average is below 0.1, the server's waiting box and the
 * error lines of {@code ctx_find_dev} and the socket setup) and from perftest v4.5-0.17 for the latency test
 * ({@code ctx_print_test_info} and {@code print_report_lat} in {@code src/perftest_parameters.c},
 * {@code RESULT_FMT_LAT} and {@code REPORT_FMT_LAT} in {@code src/perftest_parameters.h}, the header printed before
 * the run and the closing line in {@code src/send_lat.c}).
 */
public final class PerftestReportFormat {
    public static final String RESULT_LINE = "-".repeat(87);
    public static final String HEADER_GBITS =
            " #bytes     #iterations    BW peak[Gb/sec]    BW average[Gb/sec]   MsgRate[Mpps]";
    private static final String REPORT_FMT = " %-7d    %-10d       %-7.2f            %-7.2f\t\t     %-7.6f";
    private static final String REPORT_FMT_EXT = " %-7d    %-10d       %-7.6f            %-7.6f\t\t     %-7.6f";
    /** {@code RESULT_FMT_LAT} (perftest_parameters.h line 212 at v4.5-0.17), with {@code RESULT_EXT}'s end. */
    public static final String HEADER_LATENCY = " #bytes #iterations    t_min[usec]    t_max[usec]  t_typical[usec]"
            + "    t_avg[usec]    t_stdev[usec]   99% percentile[usec]   99.9% percentile[usec] ";
    /** {@code REPORT_FMT_LAT} (perftest_parameters.h line 246 at v4.5-0.17). */
    private static final String REPORT_FMT_LAT =
            " %-7d %d          %-7.2f        %-7.2f      %-7.2f  \t       %-7.2f     \t%-7.2f\t\t%-7.2f \t\t%-7.2f";
    /** print_report_lat leaves the two slowest exchanges out of its statistics ({@code LAT_MEASURE_TAIL}). */
    private static final int LAT_MEASURE_TAIL = 2;
    private static final MathContext SIX_DIGITS = new MathContext(6, RoundingMode.HALF_EVEN);

    private PerftestReportFormat() {
    }

    /** What the server prints before its one client connects. */
    public static List<String> waitingForClient() {
        return List.of("", "************************************", "* Waiting for client to connect... *",
                "************************************");
    }

    /**
     * The settings banner both sides print once connected.
     *
     * @param test     ib_write_bw's banner or ib_send_lat's
     * @param linkType {@code Ethernet} (RoCE) or {@code IB}
     * @param gidIndex the GID index used; null on InfiniBand without GRH (the line is then absent)
     */
    public static List<String> banner(PerftestTest test, PerftestCommandLine options, String linkType,
                                      Integer gidIndex) {
        boolean latency = test.latency();
        List<String> lines = new ArrayList<>();
        lines.add(RESULT_LINE);
        lines.add(latency ? "                    Send Latency Test"
                : "                    RDMA_Write " + (options.bidirectional() ? "Bidirectional " : "") + "BW Test");
        if (options.events()) {
            // the completion channel's name: the device's first completion vector (eq_num 0)
            lines.add(" Test with events. Using " + options.device() + "_comp0");
        }
        lines.add(" Dual-port       : OFF\t\tDevice         : " + options.device());
        lines.add(" Number of qps   : " + options.qps() + "\t\tTransport type : " + (options.rdmaCm() ? "IW" : "IB"));
        lines.add(" Connection type : RC\t\tUsing SRQ      : OFF");
        lines.add(" PCIe relax order: ON");
        lines.add(" ibv_wr* API     : ON");
        if (!options.isServer()) {
            lines.add(" TX depth        : " + (latency ? 1 : 128));
        }
        if (latency && options.isServer()) {
            lines.add(" RX depth        : 512");
        } else if (!latency) {
            lines.add(" CQ Moderation   : 1");
        }
        lines.add(" Mtu             : " + ("IB".equals(linkType) ? 4096 : 1024) + "[B]");
        lines.add(" Link type       : " + linkType);
        if (gidIndex != null) {
            lines.add(" GID index       : " + gidIndex);
        }
        lines.add(" Max inline data : " + (latency ? 236 : 0) + "[B]");
        lines.add(" rdma_cm QPs\t : " + (options.rdmaCm() ? "ON" : "OFF"));
        lines.add(" Data ex. method : " + (options.rdmaCm() ? "rdma_cm" : "Ethernet"));
        lines.add(RESULT_LINE);
        return lines;
    }

    /**
     * The two QPs' addresses both sides print once connected, and the line under them. On Ethernet
     * (RoCE) each address is followed by its GID, printed as perftest does ({@code PERF_GID_FMT}: the 16
     * bytes in decimal, docs/reference/perftest.md); InfiniBand without GRH prints none.
     *
     * @param localGid  the local GID as sysfs prints it ({@code fe80:0000:...}), or null for none
     * @param remoteGid the peer's GID, or null for none
     */
    public static List<String> addresses(int localQpn, String localGid, int remoteQpn, String remoteGid) {
        List<String> lines = new ArrayList<>();
        lines.add(address("local", localQpn));
        if (localGid != null) {
            lines.add(gidLine(localGid));
        }
        lines.add(address("remote", remoteQpn));
        if (remoteGid != null) {
            lines.add(gidLine(remoteGid));
        }
        lines.add(RESULT_LINE);
        return lines;
    }

    /** {@code " GID: 00:00:...:255:255:192:168:02:226"} for a sysfs GID. */
    static String gidLine(String sysfsGid) {
        String hex = sysfsGid.replace(":", "");
        if (hex.length() != 32) {
            throw new IllegalArgumentException("not a GID: " + sysfsGid);
        }
        StringBuilder line = new StringBuilder(" GID: ");
        for (int i = 0; i < 16; i++) {
            if (i > 0) {
                line.append(':');
            }
            line.append(String.format(Locale.ROOT, "%02d", Integer.parseInt(hex.substring(2 * i, 2 * i + 2), 16)));
        }
        return line.toString();
    }

    private static String address(String side, int qpn) {
        return String.format(Locale.ROOT, " %s address: LID 0000 QPN 0x%04x PSN 0x%06x RKey 0x%06x VAddr 0x%014x",
                side, qpn, (qpn * 7919) & 0xffffff, (qpn * 104729) & 0xffffff, 0x7f0000000000L + qpn * 0x1000L);
    }

    /**
     * The result table of one run measured in Gb/s ({@code --report_gbits}): header, one row, closing line.
     *
     * @param peakGbits    peak bandwidth, 10^9 bits per second
     * @param averageGbits average bandwidth, 10^9 bits per second
     */
    public static List<String> gbitsTable(long sizeBytes, long iterations, double peakGbits, double averageGbits) {
        double messagesPerSecond = averageGbits * 1e9 / 8 / sizeBytes;
        String format = averageGbits < 0.1 ? REPORT_FMT_EXT : REPORT_FMT;
        return List.of(HEADER_GBITS,
                String.format(Locale.ROOT, format, sizeBytes, iterations, peakGbits, averageGbits, messagesPerSecond / 1e6),
                RESULT_LINE);
    }

    /**
     * What ib_send_lat prints from the start of its run to its end: the summary header (send_lat.c, before the
     * exchanges), then with {@code -U} the exchanges in the order measured ({@code "#, usec"}, one {@code "%d, %g"}
     * line each, half a round trip as perftest divides by its rtt_factor 2), the header again, the summary row over
     * all but the two slowest, and the closing line.
     *
     * @param halfRoundTripsMicros what perftest prints for each exchange, microseconds; at least 3
     */
    public static List<String> latencyTable(long sizeBytes, int iterations, List<Double> halfRoundTripsMicros) {
        if (halfRoundTripsMicros.size() <= LAT_MEASURE_TAIL) {
            throw new IllegalArgumentException("a latency table needs more than " + LAT_MEASURE_TAIL + " exchanges");
        }
        List<String> lines = new ArrayList<>(List.of(RESULT_LINE, HEADER_LATENCY, "#, usec"));
        for (int i = 0; i < halfRoundTripsMicros.size(); i++) {
            lines.add((i + 1) + ", " + formatG(halfRoundTripsMicros.get(i)));
        }
        double[] sorted = halfRoundTripsMicros.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        int count = sorted.length - LAT_MEASURE_TAIL;
        double median = count % 2 == 0 ? (sorted[count / 2 - 1] + sorted[count / 2]) / 2 : sorted[count / 2];
        double average = Arrays.stream(sorted, 0, count).average().orElseThrow();
        double variance = Arrays.stream(sorted, 0, count).map(v -> (v - average) * (v - average)).sum() / count;
        lines.add(RESULT_LINE);
        lines.add(HEADER_LATENCY);
        lines.add(String.format(Locale.ROOT, REPORT_FMT_LAT, sizeBytes, iterations, sorted[0], sorted[count], median,
                average, Math.sqrt(variance), sorted[(int) Math.ceil(count * 0.99)],
                sorted[(int) Math.ceil(count * 0.999)]));
        lines.add(RESULT_LINE);
        return lines;
    }

    /**
     * C's {@code printf("%g")}: six significant digits, trailing zeros dropped, the exponent form ({@code e+06},
     * two digits at least) when the exponent is below -4 or from 6 on. Rounds the exact binary value half-even, as
     * glibc does.
     */
    public static String formatG(double value) {
        if (!Double.isFinite(value)) {
            return Double.isNaN(value) ? "nan" : value > 0 ? "inf" : "-inf";
        }
        if (value == 0) {
            return "0";
        }
        BigDecimal rounded = new BigDecimal(value).round(SIX_DIGITS);
        int exponent = rounded.precision() - rounded.scale() - 1;
        if (exponent < -4 || exponent >= 6) {
            String mantissa = rounded.movePointLeft(exponent).stripTrailingZeros().toPlainString();
            return mantissa + (exponent < 0 ? "e-" : "e+") + String.format(Locale.ROOT, "%02d", Math.abs(exponent));
        }
        return rounded.stripTrailingZeros().toPlainString();
    }

    /** The client's lines when no server listens on {@code host:port} (then exit 1). */
    public static List<String> couldNotConnect(String host, int tcpPort) {
        return List.of("Couldn't connect to " + host + ":" + tcpPort, " Unable to init the socket connection");
    }

    /** The server's lines when its TCP port is taken (then exit 1). */
    public static List<String> couldNotListen(int tcpPort) {
        return List.of("Couldn't listen to port " + tcpPort, " Unable to init the socket connection");
    }

    /** What perftest prints when libibverbs lists no device at all (then exit 1). */
    public static List<String> noDevices() {
        return List.of(" Did not detect devices ", " If device exists, check if driver is up",
                " Unable to find the Infiniband/RoCE device");
    }

    /** What perftest prints when the {@code -d} device is not among the listed ones (then exit 1). */
    public static List<String> deviceNotFound(String device) {
        return List.of("IB device " + device + " not found", " Unable to find the Infiniband/RoCE device");
    }
}
