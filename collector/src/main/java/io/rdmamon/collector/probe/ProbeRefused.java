package io.rdmamon.collector.probe;

/**
 * A probe request or action the collector refuses, with the HTTP status to answer and, for a pair in
 * cooldown, the seconds to wait ({@code Retry-After}).
 */
public final class ProbeRefused extends RuntimeException {
    private final int status;
    private final Long retryAfterSeconds;

    public ProbeRefused(int status, String message) {
        this(status, message, null);
    }

    public ProbeRefused(int status, String message, Long retryAfterSeconds) {
        super(message, null, false, false);
        this.status = status;
        this.retryAfterSeconds = retryAfterSeconds;
    }

    public int status() {
        return status;
    }

    /** Seconds until a retry can succeed; null when waiting does not help. */
    public Long retryAfterSeconds() {
        return retryAfterSeconds;
    }
}
