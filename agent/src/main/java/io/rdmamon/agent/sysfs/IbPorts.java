package io.rdmamon.agent.sysfs;

import io.rdmamon.protocol.model.EthtoolStats;
import io.rdmamon.protocol.model.FecMode;
import io.rdmamon.protocol.model.IbPort;
import io.rdmamon.protocol.model.QosConfig;
import io.rdmamon.protocol.model.TransceiverModule;
import io.rdmamon.protocol.model.VerbsPortAttributes;

import java.util.Map;

/** Copies of an {@link IbPort} completed with what other sources know about the same port. */
public final class IbPorts {
    private IbPorts() {
    }

    public static IbPort with(IbPort port, String netdev, EthtoolStats ethtool, VerbsPortAttributes verbs) {
        return new IbPort(port.port(), port.stateId(), port.state(), port.physStateId(), port.physState(),
                port.rate(), port.rateBytesPerSecond(), port.linkLayer(), port.lid(), netdev,
                port.counters(), port.hwCounters(), port.gids(), ethtool, verbs, port.qos(), port.netdevCounters(),
                port.module(), port.fec(), port.hwCountersSource(), port.gidsDropped(), port.neighbor());
    }

    /** {@code port} with its netdev's ethtool statistics (null: not read). */
    public static IbPort withEthtool(IbPort port, EthtoolStats ethtool) {
        return with(port, port.netdev(), ethtool, port.verbs());
    }

    /** {@code port} with its libibverbs attributes (null: not read). */
    public static IbPort withVerbs(IbPort port, VerbsPortAttributes verbs) {
        return with(port, port.netdev(), port.ethtool(), verbs);
    }

    /** {@code port} with its netdev's {@link io.rdmamon.protocol.model.NetdevCounters}. */
    public static IbPort withNetdevCounters(IbPort port, Map<String, Long> netdevCounters) {
        return new IbPort(port.port(), port.stateId(), port.state(), port.physStateId(), port.physState(),
                port.rate(), port.rateBytesPerSecond(), port.linkLayer(), port.lid(), port.netdev(),
                port.counters(), port.hwCounters(), port.gids(), port.ethtool(), port.verbs(), port.qos(), netdevCounters,
                port.module(), port.fec(), port.hwCountersSource(), port.gidsDropped(), port.neighbor());
    }

    /** {@code port} with its netdev's QoS configuration. */
    public static IbPort withQos(IbPort port, QosConfig qos) {
        return new IbPort(port.port(), port.stateId(), port.state(), port.physStateId(), port.physState(),
                port.rate(), port.rateBytesPerSecond(), port.linkLayer(), port.lid(), port.netdev(), port.counters(),
                port.hwCounters(), port.gids(), port.ethtool(), port.verbs(), qos, port.netdevCounters(), port.module(),
                port.fec(), port.hwCountersSource(), port.gidsDropped(), port.neighbor());
    }

    /** {@code port} with its netdev's FEC encoding (null: none, or not read). */
    public static IbPort withFec(IbPort port, FecMode fec) {
        return new IbPort(port.port(), port.stateId(), port.state(), port.physStateId(), port.physState(),
                port.rate(), port.rateBytesPerSecond(), port.linkLayer(), port.lid(), port.netdev(), port.counters(),
                port.hwCounters(), port.gids(), port.ethtool(), port.verbs(), port.qos(), port.netdevCounters(),
                port.module(), fec, port.hwCountersSource(), port.gidsDropped(), port.neighbor());
    }

    /** {@code port} with the transceiver in its netdev's cage (null: none). */
    public static IbPort withModule(IbPort port, TransceiverModule module) {
        return new IbPort(port.port(), port.stateId(), port.state(), port.physStateId(), port.physState(),
                port.rate(), port.rateBytesPerSecond(), port.linkLayer(), port.lid(), port.netdev(), port.counters(),
                port.hwCounters(), port.gids(), port.ethtool(), port.verbs(), port.qos(), port.netdevCounters(), module,
                port.fec(), port.hwCountersSource(), port.gidsDropped(), port.neighbor());
    }
}
