package io.rdmamon.agent.fabric;

import io.rdmamon.protocol.fabric.FabricSweep;

/**
 * Where a {@link FabricSweeper} puts each sweep: the agent stream (as {@code fabric} frames, to a collector that
 * accepts them), or a test. Called on the sweeper's event-loop context.
 */
@FunctionalInterface
public interface FabricSink {
    void accept(FabricSweep sweep);

    /** This sink, then {@code next}. */
    default FabricSink andThen(FabricSink next) {
        return sweep -> {
            accept(sweep);
            next.accept(sweep);
        };
    }
}
