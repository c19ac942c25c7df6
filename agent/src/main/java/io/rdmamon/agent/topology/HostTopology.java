package io.rdmamon.agent.topology;

import java.util.List;

/**
 * What {@link TopologyReader} found under a host root.
 *
 * @param gpus     GPUs in PCI address order ({@code GPU0}…)
 * @param nics     RDMA devices in device-name order ({@code NIC0}…)
 * @param host     host-wide facts
 * @param problems files that could not be read or parsed, as {@code <path>: <reason>}
 */
public record HostTopology(List<Endpoint> gpus, List<Endpoint> nics, HostFacts host, List<String> problems) {
    public HostTopology {
        gpus = List.copyOf(gpus);
        nics = List.copyOf(nics);
        problems = List.copyOf(problems);
    }
}
