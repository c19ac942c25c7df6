package io.rdmamon.agent.probe;

import java.util.List;
import java.util.concurrent.CompletableFuture;

/** One started perftest. Thread safe. */
public interface PerftestRun {

    /** Completes with the exit code once the process has exited and its output was read. */
    CompletableFuture<Integer> exit();

    /** The last lines it printed (bounded), oldest first. */
    List<String> output();

    /**
     * Whether it listens on {@code tcpPort} now. Never connects to find out: a perftest server
     * accept()s exactly one client, so a probing connection would take the real client's place.
     * Blocking (reads /proc): call on a worker.
     */
    boolean listening(int tcpPort);

    /**
     * Stops it and everything it started: SIGTERM to its process group, SIGKILL after a short
     * grace. Returns at once; {@link #exit()} completes when it is gone. Idempotent.
     */
    void kill();
}
