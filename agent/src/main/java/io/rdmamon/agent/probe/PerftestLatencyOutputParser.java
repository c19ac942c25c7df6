package io.rdmamon.agent.probe;

import io.rdmamon.protocol.probe.LatencyResult;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads {@code ib_send_lat -U}'s stdout and stderr, in the order printed, into a {@link PerftestOutcome}.
 * Format: {@code print_report_lat} in perftest's {@code src/perftest_parameters.c} (v4.5-0.17, Debian's, and
 * unchanged at HEAD 00b55b6): {@code -U} prints {@code "#, usec"} then one {@code "%d, %g"} line per measured
 * exchange (1-based; {@code -n} minus one of them, the gaps between consecutive posts), then the summary header
 * {@code RESULT_FMT_LAT} and one {@code REPORT_FMT_LAT} row ({@code src/perftest_parameters.h}) whose first two
 * columns are {@code #bytes} and {@code #iterations}. The same header is also printed once before the run
 * ({@code src/send_lat.c}).
 *
 * <p>perftest divides each measured interval by its {@code rtt_factor}, 2 for send and write tests, so a printed
 * value is half a round trip (what it calls latency); the parser multiplies it back and keeps whole nanoseconds,
 * so that the result holds round trips. Values are C's {@code %g}: six significant digits, trailing zeros
 * dropped, exponent form from 10^6 µs on ({@code 1.07374e+06}).
 *
 * <p>A result needs the summary row and the round trips before it, numbered from 1 without a gap (a list whose
 * start was lost, or that mixes numbers and other values, is no result: those lines are kept as the failure's).
 * A complete list whose every value is {@code inf} or {@code nan} is an untimed result
 * ({@link LatencyResult#untimed}): the exchanges completed, but perftest's CPU clock calibration
 * ({@code get_cpu_mhz} in {@code src/get_clock.c}: a linear fit of the cycle counter against
 * {@code gettimeofday} over about 0.2 s) failed because the host stalled it, perftest printed why
 * ({@code "Correlation coefficient r^2: 0.144153 < 0.9"}) and divided by a zero frequency. Seen in CI's Soft-RoCE
 * lab under TCG; a loaded host can do it as well. Error lines are read as for bandwidth tests
 * ({@link PerftestOutputParser#failed}); with several tables (a repeated run) the last one counts.
 */
public final class PerftestLatencyOutputParser {
    /** {@code printf("#, %s\n", units)}; the agent never passes {@code -C}, which would print cycles. */
    private static final Pattern LIST_HEADER = Pattern.compile("#, usec\\s*");
    /** {@code printf("%d, %g\n", ...)} of a non-negative value (the intervals are unsigned cycle counts). */
    private static final Pattern ROUND_TRIP = Pattern.compile("(\\d+), (\\d+(?:\\.\\d+)?(?:e[+-]\\d+)?)\\s*");
    /** The same line when the divisor was a zero CPU frequency: {@code %g} of ±infinity or NaN. */
    private static final Pattern UNTIMED_ROUND_TRIP = Pattern.compile("(\\d+), -?(?:inf|nan)\\s*");
    /** Any {@code "%d, ..."} line: a round trip, readable or not. */
    private static final Pattern NUMBERED = Pattern.compile("\\d+, .*");
    private static final Pattern SUMMARY_HEADER = Pattern.compile(
            "\\s*#bytes\\s+#iterations\\s+t_min\\[usec]\\s+t_max\\[usec]\\s+t_typical\\[usec].*");
    /** {@code #bytes}, {@code #iterations} and the seven {@code %-7.2f} columns. */
    private static final Pattern SUMMARY_ROW = Pattern.compile("\\s*(\\d+)\\s+(\\d+)(?:\\s+\\S+){7}\\s*");
    /** perftest's rtt_factor for send tests: each printed value is half the round trip. */
    private static final double RTT_FACTOR = 2;
    private static final double NANOS_PER_MICRO = 1_000;

    private PerftestLatencyOutputParser() {
    }

    /** The outcome of the output {@code lines} (stdout and stderr merged, in order). */
    public static PerftestOutcome parse(List<String> lines) {
        List<Long> roundTrips = null;
        int untimed = 0;
        List<String> unreadable = new ArrayList<>();
        boolean summary = false;
        LatencyResult last = null;
        List<String> other = new ArrayList<>();
        for (String line : lines) {
            if (LIST_HEADER.matcher(line).matches()) {
                roundTrips = new ArrayList<>();
                untimed = 0;
                unreadable.clear();
                continue;
            }
            if (NUMBERED.matcher(line).matches()) {
                Matcher roundTrip = ROUND_TRIP.matcher(line);
                Matcher untimedTrip = UNTIMED_ROUND_TRIP.matcher(line);
                boolean inOrder = roundTrips != null && unreadable.isEmpty();
                if (inOrder && untimed == 0 && roundTrip.matches()
                        && Long.parseLong(roundTrip.group(1)) == roundTrips.size() + 1) {
                    roundTrips.add(Math.round(Double.parseDouble(roundTrip.group(2)) * RTT_FACTOR * NANOS_PER_MICRO));
                } else if (inOrder && roundTrips.isEmpty() && untimedTrip.matches()
                        && Long.parseLong(untimedTrip.group(1)) == untimed + 1) {
                    untimed++;
                } else {
                    unreadable.add(line);
                }
                continue;
            }
            if (SUMMARY_HEADER.matcher(line).matches()) {
                summary = true;
                continue;
            }
            Matcher row = SUMMARY_ROW.matcher(line);
            if (summary && row.matches()) {
                // a summary without its round trips (no -U) is no result, and no error line either
                if (roundTrips != null && unreadable.isEmpty()) {
                    long size = Long.parseLong(row.group(1));
                    int iterations = Integer.parseInt(row.group(2));
                    last = untimed == 0 ? new LatencyResult(size, iterations, roundTrips)
                            : LatencyResult.untimed(size, iterations, untimedReason(other));
                }
                continue;
            }
            if (!PerftestOutputParser.isChatter(line)) {
                other.add(line);
            }
        }
        if (last != null) {
            return new PerftestOutcome.MeasuredLatency(last);
        }
        other.addAll(unreadable);
        return PerftestOutputParser.failed(other);
    }

    /** perftest's own words on its clock, else what it did. */
    private static String untimedReason(List<String> printed) {
        String words = String.join("; ", printed);
        return "perftest could not time the round trips (its CPU clock calibration failed)"
                + (words.isEmpty() ? "" : ": " + words);
    }

    /** Whether {@code line} is one of the round-trip lines, which a probe's report leaves out of its output. */
    public static boolean isRoundTrip(String line) {
        return NUMBERED.matcher(line).matches();
    }
}
