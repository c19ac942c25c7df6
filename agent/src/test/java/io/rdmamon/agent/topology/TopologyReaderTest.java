package io.rdmamon.agent.topology;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The reader and the verdicts on host-root trees of real topologies ({@link TopologyFixtures}). */
class TopologyReaderTest {

    @Test
    void hgxBoxEveryGpuPairsWithItsTwoSwitchNicsAndIsReady(@TempDir Path root) {
        TopologyFixtures.hgx(root);

        HostTopology topology = new TopologyReader(root).read();
        List<PairVerdict> pairs = TopologyVerdicts.pairs(topology);
        List<GpuChoice> choices = TopologyVerdicts.choices(topology, pairs);

        assertEquals(List.of(), topology.problems());
        assertEquals(8, topology.gpus().size());
        assertEquals(10, topology.nics().size());
        Endpoint gpu0 = topology.gpus().get(0);
        assertEquals("0000:1a:00.0", gpu0.function().address());
        assertEquals(List.of("0000:19:00.0", "0000:18:00.0", "0000:17:01.0"),
                gpu0.bridges().stream().map(PciNode::address).toList(), "its downstream port, the upstream port, the root port");
        assertEquals("pci0000:17", gpu0.hostBridge());
        assertEquals(0, gpu0.numaNode());
        assertEquals("0-55,112-167", gpu0.function().localCpulist());
        assertEquals("20", gpu0.function().iommuGroup());
        assertEquals("identity", gpu0.function().iommuGroupType());
        assertEquals(32_000_000_000L, gpu0.function().link().maxLinkSpeedTransfersPerSecond());
        assertEquals("0000:bc:00.0", topology.gpus().get(7).function().address());
        assertEquals(List.of("mlx5_0", "mlx5_1", "mlx5_2", "mlx5_3", "mlx5_4", "mlx5_5", "mlx5_6", "mlx5_7", "mlx5_8",
                "mlx5_9"), topology.nics().stream().map(Endpoint::name).toList());
        assertEquals(List.of("sys/module/nvidia_peermem"), topology.host().peermem());
        assertEquals(List.of("iommu=pt", "intel_iommu=on"), topology.host().cmdlineSettings());
        assertTrue(topology.nics().get(0).function().config().devCtl().relaxedOrdering());
        assertTrue(topology.nics().get(0).function().config().ats());
        assertEquals(0, topology.gpus().get(0).bridges().get(0).config().acs().raw());

        assertEquals(List.of(
                "GPU0 → mlx5_0, mlx5_1 (PIX): good", "GPU1 → mlx5_0, mlx5_1 (PIX): good",
                "GPU2 → mlx5_2, mlx5_3 (PIX): good", "GPU3 → mlx5_2, mlx5_3 (PIX): good",
                "GPU4 → mlx5_4, mlx5_5 (PIX): good", "GPU5 → mlx5_4, mlx5_5 (PIX): good",
                "GPU6 → mlx5_6, mlx5_7 (PIX): good", "GPU7 → mlx5_6, mlx5_7 (PIX): good"),
                choices.stream().map(GpuChoice::summary).toList());
        PairVerdict far = pairs.stream().filter(p -> p.gpu().equals("GPU0") && p.nic().equals("mlx5_4")).findFirst()
                .orElseThrow();
        assertEquals(Verdict.NOT_READY, far.verdict());
        assertEquals(List.of("GPU0↔mlx5_4 path SYS: NCCL will not use GPUDirect RDMA (NCCL_NET_GDR_LEVEL default PXB)"),
                far.reasons());
        PairVerdict node = pairs.stream().filter(p -> p.gpu().equals("GPU0") && p.nic().equals("mlx5_2")).findFirst()
                .orElseThrow();
        assertEquals(List.of("GPU0↔mlx5_2 path NODE (PHB to NCCL): NCCL will not use GPUDirect RDMA "
                + "(NCCL_NET_GDR_LEVEL default PXB)"), node.reasons());
    }

    @Test
    void consumerBoxIsPhbAndNotReady(@TempDir Path root) {
        TopologyFixtures.consumer(root);

        HostTopology topology = new TopologyReader(root).read();
        List<PairVerdict> pairs = TopologyVerdicts.pairs(topology);

        assertEquals(1, topology.gpus().size());
        assertEquals(PathType.PHB, pairs.get(0).path());
        assertEquals(Verdict.NOT_READY, pairs.get(0).verdict());
        assertEquals("GPU0 → mlx5_0 (PHB): bad: no NIC within PXB, NCCL will not use GPUDirect RDMA",
                TopologyVerdicts.choices(topology, pairs).get(0).summary());
        assertNull(topology.gpus().get(0).function().iommuGroup());
    }

    @Test
    void acsRedirectOnTheNicsSwitchPortIsNotReadyAndNamesTheBridge(@TempDir Path root) {
        TopologyFixtures.switched(root, PciTree.ACS_REDIRECT);

        PairVerdict pair = TopologyVerdicts.pairs(new TopologyReader(root).read()).get(0);

        assertEquals(PathType.PIX, pair.path(), "one switch between them");
        assertEquals(List.of("0000:3b:00.0", "0000:3a:00.0", "0000:3b:01.0"), pair.bridges());
        assertEquals(Verdict.NOT_READY, pair.verdict());
        assertEquals(List.of(
                "ACS P2P Request Redirect and P2P Completion Redirect and Upstream Forwarding on bridge 0000:3b:01.0: "
                        + "P2P goes up through the root complex",
                "ACS Source Validation on bridge 0000:3b:01.0 (rdma_topo wants it off on bare metal)"), pair.reasons());
    }

    @Test
    void acsOffOnTheSwitchIsReady(@TempDir Path root) {
        TopologyFixtures.switched(root, PciTree.ACS_OFF);

        PairVerdict pair = TopologyVerdicts.pairs(new TopologyReader(root).read()).get(0);

        assertEquals(Verdict.READY, pair.verdict(), pair::toString);
        assertEquals(List.of(), pair.reasons());
    }

    @Test
    void configReadableOnlyTo64BytesIsUnknownNeverFine(@TempDir Path root) {
        TopologyFixtures.unprivileged(root);

        HostTopology topology = new TopologyReader(root).read();
        PairVerdict pair = TopologyVerdicts.pairs(topology).get(0);

        assertFalse(topology.nics().get(0).function().config().known());
        assertEquals(Verdict.DEGRADED, pair.verdict());
        String why = "config space beyond 64 bytes not readable (needs root)";
        assertEquals(List.of(
                "unknown: ACS of bridge 0000:3b:00.0: " + why,
                "unknown: ACS of bridge 0000:3a:00.0: " + why,
                "unknown: ACS of bridge 0000:3b:01.0: " + why,
                "unknown: relaxed ordering, MPS/MRRS, ATS of mlx5_0 0000:3d:00.0: " + why,
                "unknown: MPS/MRRS, ATS of GPU0 0000:3c:00.0: " + why), pair.reasons());
    }

    @Test
    void noPeermemAndNoOpenModulesIsNotReady(@TempDir Path root) throws Exception {
        TopologyFixtures.switched(root, PciTree.ACS_OFF);
        java.nio.file.Files.delete(root.resolve("sys/module/nvidia_peermem/version"));
        java.nio.file.Files.delete(root.resolve("sys/module/nvidia_peermem"));
        new PciTree(root).nvidiaDriver("NVRM version: NVIDIA UNIX x86_64 Kernel Module  535.183.01  Sun May 12 19:39:15 UTC 2024");

        PairVerdict pair = TopologyVerdicts.pairs(new TopologyReader(root).read()).get(0);

        assertEquals(Verdict.NOT_READY, pair.verdict());
        assertEquals(List.of("no nvidia_peermem and no DMA-BUF: sys/module/nvidia_peermem and "
                + "sys/kernel/mm/memory_peers/nv_mem* are absent and proc/driver/nvidia/version names no open kernel "
                + "module"), pair.reasons());
    }

    @Test
    void openKernelModulesWithoutPeermemUseDmaBuf(@TempDir Path root) throws Exception {
        TopologyFixtures.switched(root, PciTree.ACS_OFF);
        java.nio.file.Files.delete(root.resolve("sys/module/nvidia_peermem/version"));
        java.nio.file.Files.delete(root.resolve("sys/module/nvidia_peermem"));
        new PciTree(root).nvidiaDriver("NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  560.35.03  Release Build");

        assertEquals(Verdict.READY, TopologyVerdicts.pairs(new TopologyReader(root).read()).get(0).verdict());
    }

    @Test
    void legacyNvPeerMemCounts(@TempDir Path root) throws Exception {
        TopologyFixtures.switched(root, PciTree.ACS_OFF);
        java.nio.file.Files.delete(root.resolve("sys/module/nvidia_peermem/version"));
        java.nio.file.Files.delete(root.resolve("sys/module/nvidia_peermem"));
        java.nio.file.Files.createDirectories(root.resolve("sys/kernel/mm/memory_peers/nv_mem"));

        HostTopology topology = new TopologyReader(root).read();

        assertEquals(List.of("sys/kernel/mm/memory_peers/nv_mem"), topology.host().peermem());
        assertEquals(Verdict.READY, TopologyVerdicts.pairs(topology).get(0).verdict());
    }

    @Test
    void downtrainedLinkRelaxedOrderingOffAndTranslatingIommuDegrade(@TempDir Path root) {
        PciTree tree = TopologyFixtures.switched(root, PciTree.ACS_OFF);
        Path nic = root.resolve("sys/devices/pci0000:39/0000:39:01.0/0000:3a:00.0/0000:3b:01.0/0000:3d:00.0");
        PciTree.Fn fn = tree.hostBridge("pci0000:39", 0, "0-31");
        try {
            java.nio.file.Files.writeString(nic.resolve("current_link_width"), "8\n");
            java.nio.file.Files.write(nic.resolve("config"), PciTree.config().vendor("0x15b3").device("0x1021")
                    .cls("0x020700").devCtl(PciTree.DEVCTL_RO_OFF).ats(true).bytes());
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        java.nio.file.Path group = root.resolve("sys/kernel/iommu_groups/7");
        try {
            java.nio.file.Files.createDirectories(group);
            java.nio.file.Files.writeString(group.resolve("type"), "DMA-FQ\n");
            java.nio.file.Files.createSymbolicLink(nic.resolve("iommu_group"), nic.relativize(group));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        assertTrue(java.nio.file.Files.isDirectory(fn.dir()));

        PairVerdict pair = TopologyVerdicts.pairs(new TopologyReader(root).read()).get(0);

        assertEquals(Verdict.DEGRADED, pair.verdict());
        assertEquals(List.of(
                "link of mlx5_0 0000:3d:00.0 trained 32.0 GT/s PCIe x8, max 32.0 GT/s PCIe x16 (NCCL sees only the maximum)",
                "relaxed ordering off in the DevCtl of mlx5_0 0000:3d:00.0",
                "IOMMU group 7 of mlx5_0 0000:3d:00.0 is DMA-FQ (translated): DMA and P2P are remapped by the IOMMU; "
                        + "iommu=pt gives identity"), pair.reasons());
    }
}
