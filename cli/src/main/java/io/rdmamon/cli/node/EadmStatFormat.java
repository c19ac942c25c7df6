package io.rdmamon.cli.node;

import io.rdmamon.protocol.model.IbDevice;
import io.rdmamon.protocol.model.IbPort;
import io.rdmamon.protocol.rates.WindowSummary;

import java.math.BigInteger;
import java.time.LocalTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.ToDoubleFunction;

/**
 * {@code rdmamon stat}: Alibaba {@code eadm stat}-style output. eadm's exact layout is not
 * published (its docs show screenshots), so this is rdmamon's own fixed-width layout: a header, one
 * live line per interval with rx/tx bytes and packets per second, and at the end a max/avg/min
 * table. Rates are whole numbers with thousands separators; {@code -} marks a rate that could not be
 * computed (absent counter, counter reset). Pure: no I/O.
 */
public final class EadmStatFormat {
    private static final String ROW = "%-10s %18s %14s %18s %14s";
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss", Locale.ROOT);

    private EadmStatFormat() {
    }

    public static String header() {
        return String.format(Locale.ROOT, ROW, "time", "rx B/s", "rx p/s", "tx B/s", "tx p/s");
    }

    public static String liveLine(LocalTime time, TrafficRates rates) {
        return String.format(Locale.ROOT, ROW, TIME.format(time),
                rate(rates.rxBytes()), rate(rates.rxPackets()), rate(rates.txBytes()), rate(rates.txPackets()));
    }

    /**
     * The end-of-run table.
     *
     * @param columns summaries of rx B/s, rx p/s, tx B/s, tx p/s, as {@link StatSession#summaries()}
     */
    public static List<String> summary(String device, int intervals, List<Optional<WindowSummary.Summary>> columns) {
        List<String> lines = new ArrayList<>();
        lines.add("");
        lines.add("--- " + device + " statistics, " + intervals + (intervals == 1 ? " interval" : " intervals") + " ---");
        lines.add(String.format(Locale.ROOT, ROW, "", "rx B/s", "rx p/s", "tx B/s", "tx p/s"));
        lines.add(summaryRow("max", columns, WindowSummary.Summary::max));
        lines.add(summaryRow("avg", columns, WindowSummary.Summary::average));
        lines.add(summaryRow("min", columns, WindowSummary.Summary::min));
        return lines;
    }

    /** {@code stat} without {@code -l}: the device's counters as read now, per port, in kernel order. */
    public static List<String> statistics(IbDevice device) {
        List<String> lines = new ArrayList<>();
        for (IbPort port : device.ports()) {
            lines.add(device.name() + " port " + port.port() + ":");
            counters(lines, port.counters());
            counters(lines, port.hwCounters());
        }
        return lines;
    }

    private static void counters(List<String> lines, Map<String, Long> counters) {
        // counters are unsigned 64-bit; BigInteger keeps values above 2^63 positive
        counters.forEach((name, value) -> lines.add(String.format(Locale.ROOT, "  %-34s %,d",
                name, new BigInteger(Long.toUnsignedString(value)))));
    }

    private static String summaryRow(String label, List<Optional<WindowSummary.Summary>> columns,
                                     ToDoubleFunction<WindowSummary.Summary> statistic) {
        Object[] cells = new Object[5];
        cells[0] = label;
        for (int i = 0; i < 4; i++) {
            cells[i + 1] = columns.get(i).map(s -> rate(statistic.applyAsDouble(s))).orElse("-");
        }
        return String.format(Locale.ROOT, ROW, cells);
    }

    private static String rate(Double perSecond) {
        return perSecond == null ? "-" : String.format(Locale.ROOT, "%,d", Math.round(perSecond));
    }
}
