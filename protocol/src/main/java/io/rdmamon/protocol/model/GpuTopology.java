package io.rdmamon.protocol.model;

import java.util.List;

/**
 * A GPU node's GPU↔NIC topology and GPUDirect RDMA verdicts as the agent evaluated them (docs/topology.md), read on
 * the slow cadence and carried whole in the layout (protocol 3, optional): what {@code rdmamon topo --json} says,
 * reduced to what the collector serves, exports and diagnoses.
 *
 * @param endpoints GPUs then NICs, the rows and columns of {@link #matrix}
 * @param matrix    the path class of every endpoint pair, row by row: {@code X}, {@code PIX}, {@code PXB}, {@code PHB},
 *                  {@code NODE}, {@code SYS}
 * @param pairs     every GPU↔NIC pair's verdict
 * @param peermem   a peer-memory module is loaded ({@code nvidia_peermem} or {@code nv_mem*})
 * @param notes     host facts worth a line (driver, command line settings) and files that could not be read
 */
public record GpuTopology(List<Endpoint> endpoints, List<List<String>> matrix, List<Pair> pairs, boolean peermem,
                          List<String> notes) {
    /** The path classes a matrix cell or a pair holds. */
    public static final List<String> PATHS = List.of("X", "PIX", "PXB", "PHB", "NODE", "SYS");
    /** The verdicts. */
    public static final List<String> VERDICTS = List.of("ready", "degraded", "not_ready");

    public GpuTopology {
        endpoints = List.copyOf(endpoints);
        matrix = matrix.stream().map(List::copyOf).toList();
        pairs = List.copyOf(pairs);
        notes = List.copyOf(notes);
    }

    public List<Endpoint> gpus() {
        return endpoints.stream().filter(e -> e.kind().equals(Endpoint.GPU)).toList();
    }

    public List<Endpoint> nics() {
        return endpoints.stream().filter(e -> e.kind().equals(Endpoint.NIC)).toList();
    }

    /**
     * A GPU or a NIC.
     *
     * @param name            {@code GPU0} or the RDMA device ({@code mlx5_0})
     * @param label           the matrix heading ({@code GPU0}, {@code NIC0})
     * @param kind            {@link #GPU} or {@link #NIC}
     * @param address         its PCI address
     * @param numaNode        null when not reported
     * @param cpus            {@code local_cpulist}; null when absent
     * @param relaxedOrdering DevCtl's Enable Relaxed Ordering; null when unknown (config not readable)
     */
    public record Endpoint(String name, String label, String kind, String address, Integer numaNode, String cpus,
                           Boolean relaxedOrdering) {
        public static final String GPU = "gpu";
        public static final String NIC = "nic";
    }

    /**
     * One GPU↔NIC pair.
     *
     * @param gpu         {@code GPU0}
     * @param nic         {@code mlx5_0}
     * @param path        PIX, PXB, PHB, NODE or SYS
     * @param verdict     ready, degraded or not_ready
     * @param chosen      NCCL would pair the GPU with this NIC (the closest path class among the GPU's NICs)
     * @param acsRedirect bridges of the path whose ACS redirects P2P (Request/Completion Redirect, Upstream Forwarding)
     * @param reasons     every reason, as {@code rdmamon topo} prints them
     */
    public record Pair(String gpu, String nic, String path, String verdict, boolean chosen, List<String> acsRedirect,
                       List<String> reasons) {
        public Pair {
            acsRedirect = List.copyOf(acsRedirect);
            reasons = List.copyOf(reasons);
        }

        public boolean ready() {
            return "ready".equals(verdict);
        }
    }
}
