package io.rdmamon.collector.store;

/**
 * Headline rates of one port at one sample, for the dashboard's history. Null = unknown (first
 * sample, counter absent, reset).
 *
 * @param timestampMillis the sample's timestamp
 */
public record RatePoint(long timestampMillis, Double rxBytesPerSecond, Double txBytesPerSecond,
                        Double rxPacketsPerSecond, Double txPacketsPerSecond) {
}
