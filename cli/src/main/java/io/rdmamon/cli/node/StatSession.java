package io.rdmamon.cli.node;

import io.rdmamon.protocol.rates.WindowSummary;

import java.util.List;
import java.util.Optional;

/**
 * The state of one {@code rdmamon stat -l} run: the previous read and a bounded window of rates per
 * column for the final max/avg/min table. Synchronised because the table may be printed by the
 * Ctrl-C shutdown hook while the sampling thread updates.
 */
final class StatSession {
    /** A day of one-second samples; longer runs summarise their most recent day. */
    static final int WINDOW = 86_400;

    private final WindowSummary rxBytes = new WindowSummary(WINDOW);
    private final WindowSummary rxPackets = new WindowSummary(WINDOW);
    private final WindowSummary txBytes = new WindowSummary(WINDOW);
    private final WindowSummary txPackets = new WindowSummary(WINDOW);
    private TrafficCounters previous;
    private int intervals;

    StatSession(TrafficCounters baseline) {
        this.previous = baseline;
    }

    synchronized TrafficRates update(TrafficCounters current, double seconds) {
        TrafficRates rates = TrafficRates.between(previous, current, seconds);
        add(rxBytes, rates.rxBytes());
        add(rxPackets, rates.rxPackets());
        add(txBytes, rates.txBytes());
        add(txPackets, rates.txPackets());
        previous = current;
        intervals++;
        return rates;
    }

    synchronized int intervals() {
        return intervals;
    }

    /** Summaries in column order rx B/s, rx p/s, tx B/s, tx p/s; empty where nothing was measured. */
    synchronized List<Optional<WindowSummary.Summary>> summaries() {
        return List.of(rxBytes.summary(), rxPackets.summary(), txBytes.summary(), txPackets.summary());
    }

    private static void add(WindowSummary window, Double rate) {
        if (rate != null) {
            window.add(rate);
        }
    }
}
