package io.rdmamon.cli.node;

import io.rdmamon.agent.topology.TopologyReader;
import io.rdmamon.agent.topology.TopologyReport;
import io.rdmamon.cli.failure.CliFailure;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;

/**
 * {@code rdmamon topo}: the GPU↔NIC matrix as {@code nvidia-smi topo -m} prints it (PIX, PXB, PHB, NODE, SYS, CPU and
 * NUMA affinity), then the NIC(s) NCCL would pair each GPU with and the GPUDirect RDMA verdict of every pair.
 */
@Command(name = "topo",
        description = "GPU/NIC PCIe topology (like nvidia-smi topo -m: X, PIX, PXB, PHB, NODE, SYS, CPU and NUMA "
                + "affinity), the NIC(s) NCCL would pair each GPU with, and the GPUDirect RDMA verdict of every "
                + "GPU/NIC pair (ready, degraded, not_ready) with every reason: path class, ACS on the bridges, "
                + "peermem, link width and speed, relaxed ordering, IOMMU. Reads sys/bus/pci/devices, "
                + "sys/class/infiniband, sys/kernel/iommu_groups, sys/module, proc/cmdline below the host root; "
                + "the config space beyond 64 bytes needs root (else those facts are reported unknown).")
public final class TopoCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    HostRootOption hostRoot;

    @Option(names = "--json", description = "Print JSON instead of text.")
    boolean json;

    @Override
    public Integer call() {
        Path root = hostRoot.directory();
        if (!Files.isDirectory(root.resolve("sys/bus/pci/devices"))) {
            throw CliFailure.badInput("--host-root " + root + ": no sys/bus/pci/devices (no PCI tree to read)");
        }
        TopologyReport report = TopologyReport.of(new TopologyReader(root).read());
        var out = spec.commandLine().getOut();
        if (json) {
            out.println(JsonOutput.write(TopoJson.of(report)));
        } else {
            out.print(TopoFormat.text(report));
        }
        out.flush();
        return 0;
    }
}
