package io.rdmamon.agent.probe;

import io.rdmamon.protocol.probe.PerftestResult;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads perftest's ({@code ib_write_bw}) stdout and stderr, in the order printed, into a
 * {@link PerftestOutcome}. Formats: docs/reference/perftest.md ({@code src/perftest_parameters.h},
 * {@code src/write_bw.c}).
 *
 * <p>The table header names the unit and every row after it is in that unit: {@code MB/sec}
 * (perftest before 24.07, e.g. Debian's 4.5) and {@code MiB/sec} (24.07 and later) are both
 * 2^20 bytes per second (format_factor 0x100000); {@code Gb/sec} ({@code --report_gbits}) is 10^9
 * bits per second (format_factor 125,000,000 bytes). The message rate is printed in Mpps.
 * Units are converted to bits and messages per second here, at the edge. A row is five
 * whitespace-separated numbers, in either the 2-decimal or the 6-decimal ({@code REPORT_FMT_EXT})
 * form; lines perftest interleaves (CPU frequency warnings) are skipped; with {@code -a} or a
 * repeated table the last row counts. Latency tests: {@link PerftestLatencyOutputParser}, which shares the error
 * lines' reading.
 */
public final class PerftestOutputParser {
    private static final Pattern HEADER = Pattern.compile(
            "\\s*#bytes\\s+#iterations\\s+BW peak\\[(MB/sec|MiB/sec|Gb/sec)]\\s+BW average\\[(MB/sec|MiB/sec|Gb/sec)]\\s+MsgRate\\[Mpps]\\s*");
    private static final Pattern ROW = Pattern.compile(
            "\\s*(\\d+)\\s+(\\d+)\\s+(\\d+(?:\\.\\d+)?)\\s+(\\d+(?:\\.\\d+)?)\\s+(\\d+(?:\\.\\d+)?)\\s*");
    /** perftest's RESULT_LINE (87 dashes) and the server's "Waiting for client" box. */
    private static final Pattern FRAME = Pattern.compile("-{20,}|\\*{20,}|\\* Waiting for client to connect\\.\\.\\. \\*");
    /**
     * Banner lines: the test's title, " key : value" settings (keys padded to 16), the events line of {@code -e}
     * (ctx_print_test_info, perftest_parameters.c), QP addresses and GIDs.
     */
    private static final Pattern BANNER = Pattern.compile("\\s*(?:[\\w ]+ (?:BW|Latency) Test|Test with events\\. .*"
            + "|[A-Za-z][\\w*. -]{0,15}\\s*:\\s.*|(?:local|remote) address: .*|GID: .*)");
    /**
     * What perftest writes to stderr when the CPUs' clocks disagree by more than 2 % (proc_get_cpu_mhz, get_clock.c,
     * unless {@code -F}); stdout is buffered, so it lands anywhere among the table's lines.
     */
    private static final Pattern CPU_FREQUENCY_WARNING = Pattern.compile(
            "Conflicting CPU frequency values detected: .* CPU Frequency is not max\\.\\s*");
    private static final Pattern NO_DEVICE = Pattern.compile("\\s*Did not detect devices\\s*");
    private static final Pattern DEVICE_NOT_FOUND = Pattern.compile("\\s*IB device \\S+ not found\\s*");
    private static final Pattern CONNECT_FAILED = Pattern.compile("\\s*Couldn't connect to \\S+\\s*");
    private static final Pattern LISTEN_FAILED = Pattern.compile("\\s*Couldn't listen to port \\d+\\s*");

    /** 2^20 bytes in bits: perftest's "MB/sec" and "MiB/sec" (format_factor 0x100000). */
    static final double BITS_PER_MIB = 1_048_576.0 * 8;
    /** perftest's "Gb/sec" is 10^9 bits (format_factor 125,000,000 bytes). */
    static final double BITS_PER_GBIT = 1e9;
    static final double PER_MEGA = 1e6;

    private PerftestOutputParser() {
    }

    /** The outcome of the output {@code lines} (stdout and stderr merged, in order). */
    public static PerftestOutcome parse(List<String> lines) {
        PerftestResult last = null;
        double bitsPerUnit = 0;
        List<String> other = new ArrayList<>();
        for (String line : lines) {
            Matcher header = HEADER.matcher(line);
            if (header.matches()) {
                bitsPerUnit = bitsPerUnit(header.group(2));
                continue;
            }
            Matcher row = ROW.matcher(line);
            if (bitsPerUnit > 0 && row.matches()) {
                last = new PerftestResult(Long.parseLong(row.group(1)), Long.parseLong(row.group(2)),
                        Double.parseDouble(row.group(3)) * bitsPerUnit, Double.parseDouble(row.group(4)) * bitsPerUnit,
                        Double.parseDouble(row.group(5)) * PER_MEGA);
                continue;
            }
            if (!isChatter(line)) {
                other.add(line);
            }
        }
        if (last != null) {
            return new PerftestOutcome.Measured(last);
        }
        return failed(other);
    }

    /** Lines that say nothing about a result or a failure: blank ones, frames, the banner, the CPU warning. */
    static boolean isChatter(String line) {
        return line.isBlank() || FRAME.matcher(line).matches() || BANNER.matcher(line).matches()
                || CPU_FREQUENCY_WARNING.matcher(line).matches();
    }

    /** No result: why, from perftest's own {@code lines} (those that are not {@link #isChatter chatter}). */
    static PerftestOutcome.Failed failed(List<String> lines) {
        return new PerftestOutcome.Failed(classify(lines), lines);
    }

    private static PerftestFailure classify(List<String> lines) {
        for (String line : lines) {
            if (NO_DEVICE.matcher(line).matches()) {
                return PerftestFailure.NO_DEVICE;
            }
            if (DEVICE_NOT_FOUND.matcher(line).matches()) {
                return PerftestFailure.DEVICE_NOT_FOUND;
            }
            if (CONNECT_FAILED.matcher(line).matches()) {
                return PerftestFailure.CONNECT_FAILED;
            }
            if (LISTEN_FAILED.matcher(line).matches()) {
                return PerftestFailure.LISTEN_FAILED;
            }
        }
        return PerftestFailure.OTHER;
    }

    private static double bitsPerUnit(String unit) {
        return unit.equals("Gb/sec") ? BITS_PER_GBIT : BITS_PER_MIB;
    }
}
