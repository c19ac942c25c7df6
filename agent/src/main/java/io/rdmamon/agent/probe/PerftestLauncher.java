package io.rdmamon.agent.probe;

import io.rdmamon.protocol.probe.PerftestTest;

import java.io.IOException;
import java.util.List;
import java.util.function.Consumer;

/**
 * Starts perftest with an argv from {@link PerftestArguments}. The real one runs the binary as a
 * child process ({@link ProcessPerftestLauncher}); the demo's runs a simulated perftest in-process
 * ({@code io.rdmamon.agent.sim.perftest.SimulatedPerftestLauncher}); both print perftest's output and exit like it.
 */
public interface PerftestLauncher {

    /**
     * Starts one perftest.
     *
     * @param test      which perftest program ({@link PerftestTest#program()})
     * @param arguments the argv after the binary's name
     * @param onLine    called with every output line (stdout and stderr, in order) on a launcher thread
     * @throws IOException when it cannot be started at all (binary missing, fork failed), naming why
     */
    PerftestRun launch(PerftestTest test, List<String> arguments, Consumer<String> onLine) throws IOException;
}
