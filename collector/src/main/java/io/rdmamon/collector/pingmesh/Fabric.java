package io.rdmamon.collector.pingmesh;

import io.rdmamon.protocol.model.IbDevice;
import io.rdmamon.protocol.model.IbPort;
import io.rdmamon.protocol.model.PortTransport;

import java.util.Locale;

/**
 * The fabric a port sits on. The pingmesh never pairs ports of two fabrics: an InfiniBand HCA cannot reach a RoCE
 * NIC, and eRDMA reaches only eRDMA (Alibaba's RNIC, in its iWARP and RoCE v2 modes alike, rides the cloud's own
 * network). The transport is {@link PortTransport}'s rule; an RNIC on Ethernet is eRDMA (the only RNIC rdmamon
 * supports), any other Ethernet port RoCE.
 */
public enum Fabric {
    INFINIBAND,
    ROCE,
    ERDMA;

    /** The port's fabric; null for a port no latency probe can use (link layer unknown). */
    public static Fabric of(IbDevice device, IbPort port) {
        PortTransport transport = PortTransport.of(device, port);
        if (transport == PortTransport.INFINIBAND) {
            return INFINIBAND;
        }
        if (transport == PortTransport.OTHER) {
            return null;
        }
        return device.nodeTypeId() == IbDevice.NODE_TYPE_RNIC ? ERDMA : ROCE;
    }

    /** {@code infiniband}, {@code roce}, {@code erdma}. */
    public String jsonName() {
        return name().toLowerCase(Locale.ROOT);
    }
}
