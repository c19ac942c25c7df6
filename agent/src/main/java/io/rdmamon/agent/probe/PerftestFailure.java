package io.rdmamon.agent.probe;

/** The ways perftest says it could not run, told apart by its own error lines (docs/reference/perftest.md). */
public enum PerftestFailure {
    /** {@code " Did not detect devices "}: libibverbs found no RDMA device at all. */
    NO_DEVICE,
    /** {@code "IB device <name> not found"}: the {@code -d} device does not exist. */
    DEVICE_NOT_FOUND,
    /** {@code "Couldn't connect to <host>:<port>"}: the client found no server listening. */
    CONNECT_FAILED,
    /** {@code "Couldn't listen to port <port>"}: the server could not bind its TCP port. */
    LISTEN_FAILED,
    /** Anything else: no result row and none of the known error lines. */
    OTHER
}
