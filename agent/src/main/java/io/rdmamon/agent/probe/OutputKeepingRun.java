package io.rdmamon.agent.probe;

import io.rdmamon.protocol.probe.LatencyResult;
import io.rdmamon.protocol.probe.PerftestTest;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * What every perftest run does with its output and exit, whether a child process or the simulator's: each line
 * goes to the caller as it comes and the last ones are kept for {@link #output()}; the exit code completes
 * {@link #exit()} once. A latency test keeps room for every round trip it prints ({@code -U}: one line each, at most
 * {@link LatencyResult#MAX_ITERATIONS}) besides its banner and table, so that its parser sees them all.
 */
public abstract class OutputKeepingRun implements PerftestRun {
    private final Consumer<String> onLine;
    private final OutputTail tail;
    private final CompletableFuture<Integer> exit = new CompletableFuture<>();

    protected OutputKeepingRun(PerftestTest test, Consumer<String> onLine) {
        this.onLine = onLine;
        this.tail = new OutputTail(test.latency() ? LatencyResult.MAX_ITERATIONS + OutputTail.DEFAULT_LINES
                : OutputTail.DEFAULT_LINES);
    }

    /** A line the run printed: passed on and kept. */
    protected final void printed(String line) {
        tail.add(line);
        onLine.accept(line);
    }

    /** Completes {@link #exit()} with {@code code} unless it already has. */
    protected final void exited(int code) {
        exit.complete(code);
    }

    @Override
    public final CompletableFuture<Integer> exit() {
        return exit;
    }

    @Override
    public final List<String> output() {
        return tail.snapshot();
    }
}
