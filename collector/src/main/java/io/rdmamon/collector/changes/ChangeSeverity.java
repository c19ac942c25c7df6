package io.rdmamon.collector.changes;

import java.util.Locale;

/** How much a {@link Change} matters: a diagnosis' two levels, and {@code info} for a change that is only news. */
public enum ChangeSeverity {
    INFO,
    WARNING,
    CRITICAL;

    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * The severity with this id.
     *
     * @throws IllegalArgumentException naming the value
     */
    public static ChangeSeverity fromId(String id) {
        for (ChangeSeverity severity : values()) {
            if (severity.id().equals(id)) {
                return severity;
            }
        }
        throw new IllegalArgumentException("unknown severity '" + id + "'; valid: info, warning, critical");
    }
}
