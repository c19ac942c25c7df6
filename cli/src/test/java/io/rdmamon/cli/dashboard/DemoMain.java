package io.rdmamon.cli.dashboard;

import io.rdmamon.agent.sim.Scenario;

import java.nio.file.Files;

/** Manual look: a simulated fleet behind a collector until killed. Not a test. */
public final class DemoMain {
    public static void main(String[] args) throws Exception {
        SimulatedFleet fleet = new SimulatedFleet(Files.createTempDirectory("rdmamon-demo"), Integer.parseInt(args[0]),
                Scenario.fromCliName(args[1]));
        System.out.println(fleet.baseUrl());
        Thread.sleep(Long.MAX_VALUE);
    }
}
