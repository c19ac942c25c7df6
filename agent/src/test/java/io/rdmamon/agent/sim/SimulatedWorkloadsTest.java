package io.rdmamon.agent.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.rdmamon.protocol.model.HostSample;
import io.rdmamon.protocol.model.IbDevice;
import io.rdmamon.protocol.model.PortWorkload;

/** A demo node's agent (node index 1 runs train-llama-1) reads its simulated workloads through the real attribution: pods named, every reason shown. */
class SimulatedWorkloadsTest {

    @Test
    void aRoceNodesFirstDeviceShowsItsPodsTheExitedProcessAndTheKernelQp(@TempDir Path base) throws Exception {
        try (FabricSimulator simulator = FabricSimulator.create(base, SimulationSpec.of(2, Scenario.HEALTHY))) {
            SimulatedNode node = simulator.nodes().get(0);
            HostSample sample = simulator.reader(node).read(node.name());
            IbDevice first = sample.devices().get(0);
            List<PortWorkload> workloads = first.resources().workloadsOn(1);
            assertEquals(new PortWorkload(1, "ml", "train-llama-1", "trainer", "python3", PortWorkload.PROCESS, null,
                    12), workloads.get(0), workloads.toString());
            assertTrue(workloads.contains(new PortWorkload(1, "ml-eval", "eval-1", "evaluator", "python3",
                    PortWorkload.PROCESS, null, 4)), workloads.toString());
            assertTrue(workloads.contains(new PortWorkload(1, null, null, null, null, PortWorkload.NONE,
                    "process exited", 1)), workloads.toString());
            assertTrue(workloads.contains(new PortWorkload(1, null, null, null, "[ib_core]", PortWorkload.NONE,
                    PortWorkload.KERNEL_QP, 1)), workloads.toString());
            IbDevice last = sample.devices().get(sample.devices().size() - 1);
            assertTrue(last.resources().workloadsOn(1).contains(new PortWorkload(1, null, null, null, "ib_write_bw",
                    PortWorkload.NONE, "not a Kubernetes cgroup", 2)), last.resources().workloads().toString());
        }
    }
}
