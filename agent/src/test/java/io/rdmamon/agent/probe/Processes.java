package io.rdmamon.agent.probe;

import java.time.Duration;
import java.util.Arrays;

/** Finding test processes by a unique argument among all of the machine's. */
final class Processes {
    private Processes() {
    }

    static boolean anyWithArgument(String argument) {
        return ProcessHandle.allProcesses().anyMatch(p -> p.info().arguments()
                .map(args -> Arrays.asList(args).contains(argument)).orElse(false));
    }

    static boolean noneWithArgumentWithin(String argument, Duration limit) throws InterruptedException {
        long deadline = System.nanoTime() + limit.toNanos();
        while (anyWithArgument(argument)) {
            if (System.nanoTime() > deadline) {
                return false;
            }
            Thread.sleep(50);
        }
        return true;
    }
}
