package io.rdmamon.protocol.exposition;

import java.nio.charset.StandardCharsets;
import java.util.Locale;

/** The two text formats {@code /metrics} speaks (docs/architecture.md "HTTP routes"): Prometheus text, OpenMetrics when
 * asked. */
public enum ExpositionFormat {
    PROMETHEUS_TEXT("text/plain; version=0.0.4; charset=utf-8", ""),
    OPENMETRICS("application/openmetrics-text; version=1.0.0; charset=utf-8", "# EOF\n");

    private final String contentType;
    private final byte[] end;

    ExpositionFormat(String contentType, String end) {
        this.contentType = contentType;
        this.end = end.getBytes(StandardCharsets.US_ASCII);
    }

    /**
     * OpenMetrics when the Accept header names it (Prometheus lists it first), else the Prometheus text
     * format. Protobuf is never chosen: every scraper that asks for it also accepts a text format.
     */
    public static ExpositionFormat forAccept(String accept) {
        return accept != null && accept.toLowerCase(Locale.ROOT).contains("application/openmetrics-text")
                ? OPENMETRICS : PROMETHEUS_TEXT;
    }

    /** The Content-Type header, as the Prometheus client library's writer of the format sends it. */
    public String contentType() {
        return contentType;
    }

    /**
     * What ends an exposition with no client-library families after the {@code rdma_*} ones (the agent's own
     * {@code /metrics}): OpenMetrics' {@code # EOF} line, nothing in the Prometheus text format.
     */
    public byte[] end() {
        return end.clone();
    }
}
