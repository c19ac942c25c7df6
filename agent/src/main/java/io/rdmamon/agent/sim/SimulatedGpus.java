package io.rdmamon.agent.sim;

import io.rdmamon.agent.topology.ConfigImage;

import java.io.IOException;
import java.util.List;

/**
 * The GPUs of a simulated RoCE GPU node and the PCIe facts GPUDirect RDMA depends on (docs/topology.md): one GPU per
 * NIC, on another downstream port of the PCIe switch the NIC hangs off (as on HGX-class boards: PIX), NUMA node 0
 * with CPUs 0-31, {@code config} files with ACS, ATS and Device Control, relaxed ordering on in the NICs,
 * {@code nvidia_peermem} loaded. The topology faults change one part each: {@code gpu-far-nic} puts the GPUs on host
 * bridge {@code pci0000:d7} of NUMA node 1, {@code acs-redirect} sets the NICs' downstream ports' ACS Control to
 * Linux's translated-IOMMU default (SV RR CR UF), {@code no-peermem} drops the module and names the proprietary
 * driver.
 */
final class SimulatedGpus {
    private static final int NVIDIA = 0x10de;
    private static final int H100 = 0x2330;
    private static final int GPU_CLASS = 0x030200;
    private static final int BRIDGE_CLASS = 0x060400;
    private static final int ACS_REDIRECT = 0x1D;
    private static final String GEN5 = "32.0 GT/s PCIe\n";

    private SimulatedGpus() {
    }

    /** Writes the GPUs next to {@code nics} (each an mlx5 device of the node) under {@code fault}. */
    static void write(HostTree tree, List<Mlx5Device> nics, Scenario fault) throws IOException {
        boolean far = fault == Scenario.GPU_FAR_NIC;
        for (int i = 0; i < nics.size(); i++) {
            Mlx5Device device = nics.get(i);
            String nic = device.pciFunctionPath();
            String nicPort = device.switchPortPath(0);
            String gpuPort = device.switchPortPath(1);
            String upstream = nicPort.substring(0, nicPort.lastIndexOf('/'));
            String nicBus = nic.substring(nic.lastIndexOf('/') + 6, nic.lastIndexOf('/') + 8);
            tree.write(nic + "/numa_node", "0\n");
            tree.write(nic + "/local_cpulist", "0-31\n");
            tree.writeBytes(nic + "/config", new ConfigImage().vendor(0x15b3).device(0x101d).pciClass(0x020000)
                    .devCtl(0x593F).ats(true).bytes());
            for (String bridge : List.of(upstream, nicPort, gpuPort)) {
                boolean redirect = fault == Scenario.ACS_REDIRECT && bridge.equals(nicPort);
                tree.writeBytes(bridge + "/config", new ConfigImage().vendor(0x1000).device(0xc030)
                        .pciClass(BRIDGE_CLASS).devCtl(0x2030).acs(redirect ? ACS_REDIRECT : 0).bytes());
            }
            String gpu = far
                    ? String.format("sys/devices/pci0000:d7/0000:d7:%02x.0/0000:%02x:00.0", i + 1, 0xd8 + i)
                    : gpuPort + "/0000:" + nicBus + ":10.0";
            String address = gpu.substring(gpu.lastIndexOf('/') + 1);
            tree.write(gpu + "/vendor", "0x10de\n");
            tree.write(gpu + "/device", "0x2330\n");
            tree.write(gpu + "/class", "0x030200\n");
            tree.write(gpu + "/numa_node", (far ? 1 : 0) + "\n");
            tree.write(gpu + "/local_cpulist", (far ? "32-63" : "0-31") + "\n");
            tree.write(gpu + "/current_link_speed", GEN5);
            tree.write(gpu + "/max_link_speed", GEN5);
            tree.write(gpu + "/current_link_width", "16\n");
            tree.write(gpu + "/max_link_width", "16\n");
            tree.writeBytes(gpu + "/config", new ConfigImage().vendor(NVIDIA).device(H100).pciClass(GPU_CLASS)
                    .devCtl(0x2930).bytes());
            if (far) {
                String port = gpu.substring(0, gpu.lastIndexOf('/'));
                tree.writeBytes(port + "/config", new ConfigImage().vendor(0x8086).device(0x352a)
                        .pciClass(BRIDGE_CLASS).devCtl(0x2030).acs(0).bytes());
                tree.write(port + "/numa_node", "1\n");
            }
            tree.symlink("sys/bus/pci/devices/" + address, gpu);
            String nicAddress = nic.substring(nic.lastIndexOf('/') + 1);
            tree.symlink("sys/bus/pci/devices/" + nicAddress, nic);
        }
        if (fault == Scenario.NO_PEERMEM) {
            tree.write("proc/driver/nvidia/version", "NVRM version: NVIDIA UNIX x86_64 Kernel Module  535.183.01  "
                    + "Sun May 12 19:39:15 UTC 2024\n");
        } else {
            tree.write("sys/module/nvidia_peermem/version", "1.0\n");
            tree.write("proc/driver/nvidia/version", "NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  "
                    + "560.35.03  Release Build\n");
        }
        tree.write("proc/cmdline", "BOOT_IMAGE=/vmlinuz root=/dev/sda1 ro iommu=pt\n");
    }
}
