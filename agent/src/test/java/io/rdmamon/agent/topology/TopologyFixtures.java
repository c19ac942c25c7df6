package io.rdmamon.agent.topology;

import java.nio.file.Path;

/** Host-root trees of real GPU/NIC topologies, built with {@link PciTree}. */
public final class TopologyFixtures {
    public static final String GEN5 = "32.0 GT/s PCIe";
    public static final String GEN4 = "16.0 GT/s PCIe";

    private TopologyFixtures() {
    }

    /**
     * An HGX-class box with two sockets, 8 GPUs and 10 RDMA functions. The layout follows the {@code nvidia-smi topo
     * -m}
     * published in kubernetes-sigs/dranet's GKE A4 (8× B200, 8× mlx5) guide and the H20 capture with the same
     * pattern and extra NICs (the captured outputs docs/reference/pingmesh-workloads-topology.md §3.3 cites): per
     * socket two PCIe host bridges,
     * each with one bridge holding two GPUs and two NICs (PIX among the four), NODE to the other host bridge of the
     * socket, SYS to the other socket. Each switch is laid out as sysfs shows a real one: an upstream port under the
     * root port and a downstream port per device. Added, like the H20 box's NIC8–NIC10: a dual-port front-end NIC
     * (mlx5_8,
     * mlx5_9, two functions of one card) on its own root port on socket 1. NUMA 0 has CPUs 0-55,112-167, NUMA 1
     * 56-111,168-223, as in the dranet output.
     *
     * <p>Good everywhere: ACS off on every switch port, peermem loaded, links at their maximum, relaxed ordering on,
     * IOMMU in passthrough ({@code identity}).
     */
    public static PciTree hgx(Path root) {
        PciTree tree = new PciTree(root).peermem().cmdline("BOOT_IMAGE=/vmlinuz-6.8.0 root=/dev/sda1 ro iommu=pt "
                + "intel_iommu=on");
        String[] hostBridges = {"17", "38", "97", "b8"};
        int gpu = 0;
        int nic = 0;
        int group = 20;
        for (int i = 0; i < hostBridges.length; i++) {
            int numa = i < 2 ? 0 : 1;
            String cpus = numa == 0 ? "0-55,112-167" : "56-111,168-223";
            int bus = Integer.parseInt(hostBridges[i], 16);
            PciTree.Fn hb = tree.hostBridge("pci0000:" + hostBridges[i], numa, cpus);
            PciTree.Fn rootPort = hb.bridge(bdf(bus, 1, 0), GEN5, 16, PciTree.ACS_OFF);
            // the switch as sysfs shows one: its upstream port, then one downstream port per device
            PciTree.Fn upstream = rootPort.bridge(bdf(bus + 1, 0, 0), GEN5, 16, PciTree.ACS_OFF);
            for (int k = 0; k < 2; k++) {
                upstream.bridge(bdf(bus + 2, k, 0), GEN5, 16, PciTree.ACS_OFF).gpu(bdf(bus + 3 + k, 0, 0))
                        .iommuGroup(group++, "identity");
                gpu++;
            }
            for (int k = 2; k < 4; k++) {
                upstream.bridge(bdf(bus + 2, k, 0), GEN5, 16, PciTree.ACS_OFF).nic(bdf(bus + 3 + k, 0, 0),
                        "mlx5_" + nic++).iommuGroup(group++, "identity");
            }
        }
        PciTree.Fn frontEnd = tree.hostBridge("pci0000:d9", 1, "56-111,168-223").bridge("0000:d9:01.0", GEN4, 16,
                PciTree.ACS_OFF);
        frontEnd.nic("0000:da:00.0", "mlx5_8").iommuGroup(90, "identity");
        frontEnd.nic("0000:da:00.1", "mlx5_9").iommuGroup(90, "identity");
        return tree;
    }

    /**
     * A workstation: one GPU (RTX-class, class 0x030000) on root port 0000:00:01.0 and one ConnectX on root port
     * 0000:00:1c.0, both of host bridge pci0000:00, one NUMA node (8 CPUs): PHB, as nvidia-smi shows a GPU and a NIC
     * in two slots of a desktop board.
     */
    public static PciTree consumer(Path root) {
        PciTree tree = new PciTree(root).peermem().cmdline("BOOT_IMAGE=/vmlinuz root=/dev/nvme0n1p2 quiet");
        PciTree.Fn hb = tree.hostBridge("pci0000:00", 0, "0-7");
        hb.bridge("0000:00:01.0", GEN4, 16, null).function("0000:01:00.0", "0x10de", "0x2684", "0x030000",
                GEN4, GEN4, 16, 16, PciTree.config().devCtl(0x2930));
        hb.bridge("0000:00:1c.0", GEN4, 8, null).nic("0000:02:00.0", "mlx5_0");
        return tree;
    }

    /**
     * A physical PCIe switch under one root port: upstream port 0000:3a:00.0, downstream ports 0000:3b:00.0 (GPU) and
     * 0000:3b:01.0 (NIC): PIX, one switch between them. {@code nicPortAcs} is the ACS Control of the NIC's
     * downstream port.
     */
    public static PciTree switched(Path root, int nicPortAcs) {
        PciTree tree = new PciTree(root).peermem();
        PciTree.Fn usp = tree.hostBridge("pci0000:39", 0, "0-31").bridge("0000:39:01.0", GEN5, 16, PciTree.ACS_OFF)
                .bridge("0000:3a:00.0", GEN5, 16, PciTree.ACS_OFF);
        usp.bridge("0000:3b:00.0", GEN5, 16, PciTree.ACS_OFF).gpu("0000:3c:00.0");
        usp.bridge("0000:3b:01.0", GEN5, 16, nicPortAcs).nic("0000:3d:00.0", "mlx5_0");
        return tree;
    }

    /** {@link #switched} with every {@code config} cut to its first 64 bytes, as an unprivileged read gets it. */
    public static PciTree unprivileged(Path root) {
        PciTree tree = switched(root, PciTree.ACS_REDIRECT);
        for (String path : new String[] {"0000:39:01.0", "0000:39:01.0/0000:3a:00.0",
                "0000:39:01.0/0000:3a:00.0/0000:3b:00.0", "0000:39:01.0/0000:3a:00.0/0000:3b:01.0",
                "0000:39:01.0/0000:3a:00.0/0000:3b:00.0/0000:3c:00.0",
                "0000:39:01.0/0000:3a:00.0/0000:3b:01.0/0000:3d:00.0"}) {
            try {
                Path config = root.resolve("sys/devices/pci0000:39").resolve(path).resolve("config");
                byte[] all = java.nio.file.Files.readAllBytes(config);
                java.nio.file.Files.write(config, java.util.Arrays.copyOf(all, 64));
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }
        return tree;
    }

    static String bdf(int bus, int device, int function) {
        return String.format("0000:%02x:%02x.%d", bus, device, function);
    }
}
