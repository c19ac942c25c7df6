package io.rdmamon.collector.pingmesh;

import io.rdmamon.collector.model.PortKey;

import java.util.Objects;

/**
 * A port the pingmesh may probe: ACTIVE, on an agent that allows the pingmesh.
 *
 * @param key    node, device, port
 * @param fabric the fabric it sits on; ports of two fabrics are never paired
 * @param group  its group ({@link PortGroups}): the ports behind one switch, by LLDP or configuration
 */
public record MeshPort(PortKey key, Fabric fabric, String group) {
    public MeshPort {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(fabric, "fabric");
        Objects.requireNonNull(group, "group");
    }
}
