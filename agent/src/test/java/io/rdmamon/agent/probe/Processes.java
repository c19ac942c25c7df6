package io.rdmamon.agent.probe;

import java.util.Arrays;

/** Finding test processes by a unique argument among all of the machine's. */
final class Processes {
    private Processes() {
    }

    static boolean anyWithArgument(String argument) {
        return ProcessHandle.allProcesses().anyMatch(p -> p.info().arguments()
                .map(args -> Arrays.asList(args).contains(argument)).orElse(false));
    }
}
