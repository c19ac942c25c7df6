package io.rdmamon.protocol.exposition;

import java.nio.charset.StandardCharsets;

/**
 * One metric family of the exposition with its HELP/TYPE header pre-rendered for both formats.
 *
 * @param name       the family name without suffix (families are ordered by it, as the client library does)
 * @param type       counter, gauge or info
 * @param help       HELP text, unescaped
 * @param sampleName the name on sample lines ({@code _total} for counters, {@code _info} for infos), as bytes
 * @param textHeader HELP and TYPE lines of the Prometheus text format
 * @param openMetricsHeader TYPE and HELP lines of OpenMetrics
 */
public record Family(String name, Type type, String help, byte[] sampleName, byte[] textHeader, byte[] openMetricsHeader) {
    public enum Type { COUNTER, GAUGE, INFO }

    public static Family counter(String name, String help) {
        return of(name, Type.COUNTER, help);
    }

    public static Family gauge(String name, String help) {
        return of(name, Type.GAUGE, help);
    }

    /** {@code name} without {@code _info}. */
    public static Family info(String name, String help) {
        return of(name, Type.INFO, help);
    }

    private static Family of(String name, Type type, String help) {
        String sampleName = switch (type) {
            case COUNTER -> name + "_total";
            case GAUGE -> name;
            case INFO -> name + "_info";
        };
        // the text format names the family by its sample name and has no info type; OpenMetrics names it
        // without suffix (the client library's writers do the same)
        String text = "# HELP " + sampleName + " " + ExpositionBytes.escapeHelp(help, false) + "\n"
                + "# TYPE " + sampleName + " " + (type == Type.COUNTER ? "counter" : "gauge") + "\n";
        String openMetrics = "# TYPE " + name + " " + type.name().toLowerCase(java.util.Locale.ROOT) + "\n"
                + "# HELP " + name + " " + ExpositionBytes.escapeHelp(help, true) + "\n";
        return new Family(name, type, help, sampleName.getBytes(StandardCharsets.UTF_8),
                text.getBytes(StandardCharsets.UTF_8), openMetrics.getBytes(StandardCharsets.UTF_8));
    }

    public byte[] header(ExpositionFormat format) {
        return format == ExpositionFormat.OPENMETRICS ? openMetricsHeader : textHeader;
    }
}
