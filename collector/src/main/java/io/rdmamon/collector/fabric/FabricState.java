package io.rdmamon.collector.fabric;

import io.rdmamon.protocol.fabric.FabricSweep;

import java.util.List;
import java.util.Objects;

/**
 * One fabric as the collector holds it, immutable: the subnet's last topology with the latest counters, its sweepers,
 * and the verdicts raised on it.
 *
 * @param subnet          the fabric's name: the subnet prefix and the SM ({@link FabricStore#subnetOf})
 * @param sweep           the last topology, each port with the latest counters read
 * @param sweepers        every agent that swept it, by name
 * @param stale           no sweeper is connected, or none swept it for {@code staleAfter}
 * @param lastSweepMillis collector time of the last sweep applied
 * @param verdicts        the fabric rules raised on its links
 */
public record FabricState(String subnet, FabricSweep sweep, List<SweeperStatus> sweepers, boolean stale,
                          long lastSweepMillis, List<FabricVerdict> verdicts) {
    public FabricState {
        Objects.requireNonNull(subnet, "subnet");
        Objects.requireNonNull(sweep, "sweep");
        sweepers = List.copyOf(sweepers);
        verdicts = List.copyOf(verdicts);
    }

    /**
     * One sweeper's last sweep of the fabric.
     *
     * @param connected       whether its agent's stream is open
     * @param receivedMillis  collector time its last sweep was applied
     * @param durationMillis  how long that sweep took on the agent
     * @param success         whether every node answered it
     * @param problems        its problems, one line each
     */
    public record SweeperStatus(String sweeper, boolean connected, long receivedMillis, long durationMillis,
                                boolean success, List<String> problems) {
        public SweeperStatus {
            problems = List.copyOf(problems);
        }

        SweeperStatus disconnected() {
            return new SweeperStatus(sweeper, false, receivedMillis, durationMillis, success, problems);
        }
    }
}
