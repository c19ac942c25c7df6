package io.rdmamon.collector.probe;

import io.rdmamon.collector.store.NodeStore;
import io.rdmamon.protocol.model.HostSample;

/** The nodes a probe may run between: those this collector holds, or in a cluster any replica's. */
public interface ProbeNodes {
    /** Whether any agent of {@code node} is known (connected now or held, stale). */
    boolean known(String node);

    /** The node's last sample; null when it has sent none yet. */
    HostSample lastSample(String node);

    /** The nodes of this collector's store. */
    static ProbeNodes of(NodeStore store) {
        return new ProbeNodes() {
            @Override
            public boolean known(String node) {
                return store.node(node).isPresent();
            }

            @Override
            public HostSample lastSample(String node) {
                return store.node(node).map(view -> view.lastSample()).orElse(null);
            }
        };
    }
}
