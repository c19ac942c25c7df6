package io.rdmamon.agent.topology;

import java.util.List;

/** A topology with its pair verdicts and each GPU's NIC choice: what {@code rdmamon topo} and the agent report. */
public record TopologyReport(HostTopology topology, List<PairVerdict> pairs, List<GpuChoice> choices) {
    public TopologyReport {
        pairs = List.copyOf(pairs);
        choices = List.copyOf(choices);
    }

    public static TopologyReport of(HostTopology topology) {
        List<PairVerdict> pairs = TopologyVerdicts.pairs(topology);
        return new TopologyReport(topology, pairs, TopologyVerdicts.choices(topology, pairs));
    }

    /** All GPUs then all NICs, the rows and columns of the matrix. */
    public List<Endpoint> endpoints() {
        List<Endpoint> all = new java.util.ArrayList<>(topology.gpus());
        all.addAll(topology.nics());
        return all;
    }

    /** The matrix cell of two endpoints: {@code X} for one with itself, else the path class. */
    public static String cell(Endpoint a, Endpoint b) {
        if (a.function().address().equals(b.function().address()) && a.name().equals(b.name())) {
            return "X";
        }
        return PathClassifier.classify(a, b).type().name();
    }
}
