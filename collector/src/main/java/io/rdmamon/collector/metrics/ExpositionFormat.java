package io.rdmamon.collector.metrics;

import java.util.Locale;

/** The two text formats {@code /metrics} speaks (DESIGN.md §4): Prometheus text, OpenMetrics when asked. */
public enum ExpositionFormat {
    PROMETHEUS_TEXT,
    OPENMETRICS;

    /**
     * OpenMetrics when the Accept header names it (Prometheus lists it first), else the Prometheus text
     * format. Protobuf is never chosen: every scraper that asks for it also accepts a text format.
     */
    public static ExpositionFormat forAccept(String accept) {
        return accept != null && accept.toLowerCase(Locale.ROOT).contains("application/openmetrics-text")
                ? OPENMETRICS : PROMETHEUS_TEXT;
    }
}
