package io.rdmamon.agent.host;

import io.rdmamon.agent.topology.GpuTopologies;
import io.rdmamon.protocol.model.SourceStatus;

import java.util.function.Consumer;

/**
 * The GPU↔NIC topology ({@link GpuTopologies}), reused on the slow cadence; none without GPU. The files it could not
 * read are problem notes in the topology itself; a status only when the whole read fails.
 */
final class TopologySource implements HostSource {
    static final String NAME = "topology";

    private final GpuTopologies topology;

    TopologySource(GpuTopologies topology) {
        this.topology = topology;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String subject() {
        return "pci";
    }

    @Override
    public String culprit(String subject) {
        return "sys/bus/pci/devices";
    }

    @Override
    public void read(HostParts parts, Consumer<SourceStatus> statuses) {
        parts.topology(topology.current());
    }
}
