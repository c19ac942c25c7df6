package io.rdmamon.agent.sysfs;

import io.rdmamon.protocol.model.EthtoolStats;
import io.rdmamon.protocol.model.IbPort;
import io.rdmamon.protocol.model.VerbsPortAttributes;

/** Copies of an {@link IbPort} completed with what other sources know about the same port. */
public final class IbPorts {
    private IbPorts() {
    }

    public static IbPort with(IbPort port, String netdev, EthtoolStats ethtool, VerbsPortAttributes verbs) {
        return new IbPort(port.port(), port.stateId(), port.state(), port.physStateId(), port.physState(),
                port.rate(), port.rateBytesPerSecond(), port.linkLayer(), port.lid(), netdev,
                port.counters(), port.hwCounters(), port.gids(), ethtool, verbs);
    }
}
