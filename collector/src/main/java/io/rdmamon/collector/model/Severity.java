package io.rdmamon.collector.model;

import java.util.Locale;

/** How urgent a diagnosis is; the same two levels as the {@code severity} label of the alert rules. */
public enum Severity {
    /** Traffic is being lost or the fabric is stalling now: page. */
    CRITICAL,
    /** Misconfiguration or degradation that costs performance: look at it soon. */
    WARNING;

    /** The contract string: {@code critical}, {@code warning}. */
    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * The severity with this id.
     *
     * @throws IllegalArgumentException naming the value and the valid ones
     */
    public static Severity fromId(String id) {
        for (Severity severity : values()) {
            if (severity.id().equals(id)) {
                return severity;
            }
        }
        throw new IllegalArgumentException("unknown severity '" + id + "'; valid: critical, warning");
    }
}
