package io.rdmamon.collector;

import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * Reads one series of a registry in the text format, without an HTTP request (tests of connection limits must
 * not open connections to look).
 */
public final class SeriesValue {
    private SeriesValue() {
    }

    /** The value of {@code series} (name with its labels as exposed, e.g. {@code x_total{phase="request"}}), 0 when absent. */
    public static double of(PrometheusRegistry registry, String series) {
        ByteArrayOutputStream text = new ByteArrayOutputStream();
        try {
            PrometheusTextFormatWriter.create().write(text, registry.scrape());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return text.toString(StandardCharsets.UTF_8).lines().filter(l -> l.startsWith(series + " ")).findFirst()
                .map(l -> Double.parseDouble(l.substring(series.length() + 1))).orElse(0.0);
    }
}
