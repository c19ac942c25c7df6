package io.rdmamon.collector.probe;

import java.util.List;

/** The collector's view of a probe (docs/architecture.md "HTTP routes"; the JSON names are the contract). */
public enum ProbeState {
    /** Accepted; the destination agent was asked to start its perftest server. */
    QUEUED("queued"),
    /** The server listens; the source agent was asked to run the client. */
    SERVER_READY("server-ready"),
    /** The client runs. */
    RUNNING("running"),
    DONE("done"),
    FAILED("failed"),
    CANCELLED("cancelled");

    private final String jsonName;

    ProbeState(String jsonName) {
        this.jsonName = jsonName;
    }

    public String jsonName() {
        return jsonName;
    }

    /** The path of a probe that succeeds, in order: what the dashboard draws as steps (API {@code steps}). */
    public static final List<ProbeState> STEPS = List.of(QUEUED, SERVER_READY, RUNNING, DONE);

    public boolean terminal() {
        return this == DONE || this == FAILED || this == CANCELLED;
    }

    /** This state's place in {@link #STEPS} (0-based); -1 for FAILED and CANCELLED, which leave the path. */
    public int step() {
        return STEPS.indexOf(this);
    }
}
