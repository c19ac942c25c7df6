package io.rdmamon.agent.probe;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * What every perftest run does with its output and exit, whether a child process or the simulator's: each line
 * goes to the caller as it comes and the last ones are kept for {@link #output()}; the exit code completes
 * {@link #exit()} once.
 */
public abstract class OutputKeepingRun implements PerftestRun {
    private final Consumer<String> onLine;
    private final OutputTail tail = new OutputTail(OutputTail.DEFAULT_LINES);
    private final CompletableFuture<Integer> exit = new CompletableFuture<>();

    protected OutputKeepingRun(Consumer<String> onLine) {
        this.onLine = onLine;
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
