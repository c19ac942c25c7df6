package io.rdmamon.cli.daemon;

import io.rdmamon.agent.fabric.FabricSink;
import io.rdmamon.protocol.fabric.FabricSweep;

/**
 * A log line per topology sweep and per sweep with problems, so that an operator sees the role work, beside the
 * {@code fabric} frames the stream carries to a collector that accepts them.
 */
final class FabricSweepLog implements FabricSink {
    private static final System.Logger LOG = System.getLogger(FabricSweepLog.class.getName());

    @Override
    public void accept(FabricSweep sweep) {
        if (sweep.topology() || !sweep.success()) {
            LOG.log(sweep.success() ? System.Logger.Level.INFO : System.Logger.Level.WARNING,
                    "fabric {0}: {1} nodes, {2} links swept in {3} ms{4}", sweep.subnetPrefix(), sweep.nodes().size(),
                    sweep.links().size(), sweep.durationMillis(),
                    sweep.success() ? "" : "; problems: " + String.join("; ", sweep.problems()));
        }
    }
}
