package io.rdmamon.protocol.probe;

import io.rdmamon.protocol.text.WireText;

/** What an agent reports about its side of a probe. */
public enum ProbePhase {
    /** The server's perftest listens on its TCP port (seen in /proc/net/tcp, not guessed from output). */
    LISTENING("listening"),
    /** The process runs (client started, or server connected). */
    RUNNING("running"),
    /** perftest exited 0; a client report carries the result. */
    DONE("done"),
    /** perftest could not start, exited non-zero or hit the hard timeout; the report says why. */
    FAILED("failed"),
    /** Stopped on the collector's request. */
    CANCELLED("cancelled");

    private final String wireName;

    ProbePhase(String wireName) {
        this.wireName = wireName;
    }

    public String wireName() {
        return wireName;
    }

    public boolean terminal() {
        return this == DONE || this == FAILED || this == CANCELLED;
    }

    /** The phase named {@code name} on the wire, or an exception naming the valid ones. */
    public static ProbePhase fromWire(String name) {
        for (ProbePhase phase : values()) {
            if (phase.wireName.equals(name)) {
                return phase;
            }
        }
        throw new IllegalArgumentException("unknown probe phase " + WireText.quote(name)
                + " (expected listening, running, done, failed or cancelled)");
    }
}
