package io.rdmamon.cli.node;

import io.rdmamon.agent.topology.Endpoint;
import io.rdmamon.agent.topology.GpuChoice;
import io.rdmamon.agent.topology.HostTopology;
import io.rdmamon.agent.topology.PairVerdict;
import io.rdmamon.agent.topology.TopologyReport;

import java.util.List;

/** The text of {@code rdmamon topo}: the matrix in {@code nvidia-smi topo -m}'s layout (tab separated), then verdicts. */
final class TopoFormat {
    private TopoFormat() {
    }

    static String text(TopologyReport report) {
        HostTopology topology = report.topology();
        StringBuilder s = new StringBuilder();
        if (topology.gpus().isEmpty()) {
            s.append("no GPU found (sys/bus/pci/devices has no function of class 0x0300xx/0x0302xx from NVIDIA "
                    + "0x10de or AMD 0x1002)\n");
        }
        List<Endpoint> all = report.endpoints();
        if (!all.isEmpty()) {
            s.append(matrix(all));
            s.append("\nLegend:\n\n");
            s.append("  X    = Self\n");
            s.append("  SYS  = Connection traversing PCIe as well as the SMP interconnect between NUMA nodes (e.g., QPI/UPI)\n");
            s.append("  NODE = Connection traversing PCIe as well as the interconnect between PCIe Host Bridges within a NUMA node\n");
            s.append("  PHB  = Connection traversing PCIe as well as a PCIe Host Bridge (typically the CPU)\n");
            s.append("  PXB  = Connection traversing multiple PCIe bridges (without traversing the PCIe Host Bridge)\n");
            s.append("  PIX  = Connection traversing at most a single PCIe bridge\n");
            if (topology.gpus().size() > 1) {
                s.append("  GPU↔GPU cells are the PCIe path: NVLink is not read (nvidia-smi prints NV# where it is)\n");
            }
            if (!topology.nics().isEmpty()) {
                s.append("\nNIC Legend:\n\n");
                for (Endpoint nic : topology.nics()) {
                    s.append("  ").append(nic.label()).append(": ").append(nic.name()).append('\n');
                }
            }
        }
        if (!topology.gpus().isEmpty()) {
            s.append("\nGPUDirect RDMA (NCCL's pick: the closest NIC; GDR at NCCL_NET_GDR_LEVEL default PXB):\n");
            for (GpuChoice choice : report.choices()) {
                s.append("  ").append(choice.summary()).append('\n');
            }
            if (!topology.nics().isEmpty()) {
                s.append("\nPairs:\n");
                for (PairVerdict pair : report.pairs()) {
                    s.append("  ").append(pair.gpu()).append('↔').append(pair.nic()).append('\t')
                            .append(pair.path()).append('\t').append(pair.verdict()).append('\n');
                    for (String reason : pair.reasons()) {
                        s.append("\t").append(reason).append('\n');
                    }
                }
            }
        }
        s.append("\nHost:\n");
        s.append("  peermem:\t").append(topology.host().peermem().isEmpty() ? "none (no sys/module/nvidia_peermem, "
                + "no sys/kernel/mm/memory_peers/nv_mem*)" : String.join(", ", topology.host().peermem())).append('\n');
        if (topology.host().nvidiaDriver() != null) {
            s.append("  driver:\t").append(topology.host().nvidiaDriver()).append('\n');
        }
        s.append("  cmdline:\t").append(topology.host().cmdline() == null ? "unknown (no proc/cmdline)"
                : topology.host().cmdlineSettings().isEmpty() ? "no IOMMU or PCI settings"
                : String.join(" ", topology.host().cmdlineSettings())).append('\n');
        for (String problem : topology.problems()) {
            s.append("  problem:\t").append(problem).append('\n');
        }
        return s.toString();
    }

    /** The matrix: a header row, then one row per GPU and NIC, with CPU and NUMA affinity. */
    static String matrix(List<Endpoint> all) {
        StringBuilder s = new StringBuilder();
        for (Endpoint e : all) {
            s.append('\t').append(e.label());
        }
        s.append("\tCPU Affinity\tNUMA Affinity\n");
        for (Endpoint row : all) {
            s.append(row.label());
            for (Endpoint column : all) {
                String cell = TopologyReport.cell(row, column);
                s.append('\t').append("X".equals(cell) ? " X " : cell);
            }
            String cpus = row.function().localCpulist();
            s.append('\t').append(cpus == null ? "N/A" : cpus).append('\t')
                    .append(row.numaNode() == null ? "N/A" : row.numaNode().toString()).append('\n');
        }
        return s.toString();
    }
}
