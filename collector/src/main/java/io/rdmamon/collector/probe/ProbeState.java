package io.rdmamon.collector.probe;

/** The collector's view of a probe (DESIGN.md §4; the JSON names are the contract). */
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

    public boolean terminal() {
        return this == DONE || this == FAILED || this == CANCELLED;
    }
}
