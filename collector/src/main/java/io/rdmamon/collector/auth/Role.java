package io.rdmamon.collector.auth;

import java.util.Locale;

/** What a token lets its bearer do (docs/architecture.md "The rdmamon command": separate tokens for agents, viewers and
 * operators). */
public enum Role {
    /** Stream samples to the ingest channel. */
    AGENT,
    /** Read: /metrics, /api GETs. */
    VIEWER,
    /** Read and act (start probes); implies {@link #VIEWER}. */
    OPERATOR;

    /** Parses {@code agent}, {@code viewer}, {@code operator} (any case). */
    public static Role parse(String text) {
        try {
            return valueOf(text.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("unknown role '" + text + "' (expected agent, viewer or operator)");
        }
    }
}
