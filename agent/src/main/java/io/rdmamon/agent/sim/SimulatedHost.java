package io.rdmamon.agent.sim;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/** One simulated node: its host-root tree and its devices. */
final class SimulatedHost {
    private static final double SECONDS_PER_DAY = 86_400;
    private static final int DEVICES_PER_MLX5_NODE = 2;
    /** Locally administered MACs under well-known OUIs, so the trees look like the real vendors'. */
    private static final long MELLANOX_OUI = 0x0c42a1L;
    private static final long NVIDIA_IB_OUI = 0xb8cef6L;
    private static final long ALIBABA_OUI = 0x00163eL;

    private final SimulatedNode node;
    private final HostTree tree;
    private final List<SimulatedDevice> devices;
    private SimulatedWorkloads workloads;
    /** The NIC health of a node whose firmware dies ({@link Scenario#FIRMWARE_FATAL}); null on the others. */
    private SimulatedFirmwareFatal firmwareFatal;

    private SimulatedHost(SimulatedNode node, HostTree tree, List<SimulatedDevice> devices) {
        this.node = node;
        this.tree = tree;
        this.devices = devices;
    }

    /**
     * Lays out {@code plan}'s tree under {@code baseDir/<name>} with counters as after a few days
     * of uptime (warm-up run of the same traffic model, without fault events).
     */
    static SimulatedHost create(Path baseDir, FleetPlan.NodePlan plan, SimulationSpec spec, SplittableRandom random)
            throws IOException {
        HostTree tree = HostTree.create(baseDir.resolve(plan.name()));
        SimulatedNode node = new SimulatedNode(plan.name(), tree.root(), plan.kind(), plan.fault());
        SimulatedHost host = new SimulatedHost(node, tree, devices(plan, spec, random));
        double uptimeSeconds = random.nextDouble(2, 20) * SECONDS_PER_DAY;
        for (int ordinal = 0; ordinal < host.devices.size(); ordinal++) {
            SimulatedDevice device = host.devices.get(ordinal);
            device.advance(uptimeSeconds, true);
            device.writeLayout(tree);
            device.writeState(tree);
            if (device.netdev() != null) {
                // one port per device: the device's ordinal is its port's; InfiniBand ports have no LLDP
                SimulatedLldp.write(tree, plan.index(), plan.name(), ordinal, device.netdev());
            }
        }
        if (plan.kind() == NodeKind.ROCE_MLX5) {
            // what doRoCE writes (docs/reference/qos-dcb.md §6.1): NCCL marks its traffic with the fleet's RoCE DSCP,
            // on GID 3
            // (the RoCE v2 IPv4 entry of the simulated table)
            tree.write("etc/nccl.conf", "# RoCE: DSCP " + spec.roceDscp() + " -> priority " + spec.losslessPriority()
                    + "\nNCCL_IB_TC=" + (spec.roceDscp() << 2) + "\nNCCL_IB_GID_INDEX=3\n");
            // RoCE nodes are GPU nodes: one GPU per NIC, and the PCIe facts GPUDirect RDMA depends on
            List<Mlx5Device> nics = host.devices.stream().filter(Mlx5Device.class::isInstance)
                    .map(Mlx5Device.class::cast).toList();
            SimulatedGpus.write(tree, nics, plan.fault());
            if (plan.fault() == Scenario.FIRMWARE_FATAL) {
                host.firmwareFatal = SimulatedFirmwareFatal.create(tree, nics, uptimeSeconds);
            }
        }
        host.workloads = SimulatedWorkloads.create(tree, plan.index(),
                host.devices.stream().map(SimulatedDevice::name).toList());
        tree.publish();
        return host;
    }

    private static List<SimulatedDevice> devices(FleetPlan.NodePlan plan, SimulationSpec spec, SplittableRandom random) {
        int index = plan.index();
        List<SimulatedDevice> devices = new ArrayList<>();
        switch (plan.kind()) {
            case ROCE_MLX5 -> {
                // Every fourth RoCE node is an older 100GbE ConnectX-5 host, the rest 200GbE ConnectX-6.
                Mlx5Device.Model model = index % 4 == 0 ? Mlx5Device.Model.CONNECTX5_EX : Mlx5Device.Model.CONNECTX6;
                for (int dev = 0; dev < DEVICES_PER_MLX5_NODE; dev++) {
                    long mac = mac(MELLANOX_OUI, index, dev);
                    // 10.<device>.<node high>.<node low>: file contents only, never contacted.
                    int ipv4 = Addresses.ipv4(10, dev + 1, index >> 8, index & 0xff);
                    // the ConnectX-5 hosts run MLNX_OFED; odd-numbered nodes have iproute2 6.5 or later
                    SimulatedQos qos = new SimulatedQos("mlx5_" + dev, "ens1f" + dev + "np" + dev,
                            portFault(plan.fault(), dev), spec.losslessPriority(), spec.wrongPriority(),
                            spec.roceDscp(), model == Mlx5Device.Model.CONNECTX5_EX, index % 2 == 1);
                    devices.add(Mlx5Device.roce(mac, model, ipv4, qos, random.split()));
                }
            }
            case INFINIBAND_MLX5 -> {
                for (int dev = 0; dev < DEVICES_PER_MLX5_NODE; dev++) {
                    int lid = 0x100 + index * DEVICES_PER_MLX5_NODE + dev;
                    devices.add(Mlx5Device.infiniband("mlx5_" + dev, mac(NVIDIA_IB_OUI, index, dev),
                            Mlx5Device.Model.CONNECTX7, lid, portFault(plan.fault(), dev), random.split()));
                }
            }
            case ERDMA -> {
                // Instances with a reported netdev speed show 25 Gb/s; the others virtio's unknown-speed default.
                LinkSpeed speed = index % 2 == 0 ? LinkSpeed.SDR_1X : LinkSpeed.EDR_1X;
                devices.add(new ErdmaDevice(mac(ALIBABA_OUI, index, 0), speed, plan.fault(), random.split()));
            }
        }
        return List.copyOf(devices);
    }

    /** Faults of one port (link-degraded, gid-missing, dirty-optic, pcie-x8, module-swap) go to the node's last device; the others
     * to all. */
    private static Scenario portFault(Scenario nodeFault, int device) {
        boolean onePort = nodeFault == Scenario.LINK_DEGRADED || nodeFault == Scenario.GID_MISSING
                || nodeFault == Scenario.DIRTY_OPTIC || nodeFault == Scenario.PCIE_X8 || nodeFault == Scenario.MODULE_SWAP;
        return !onePort || device == DEVICES_PER_MLX5_NODE - 1 ? nodeFault : Scenario.HEALTHY;
    }

    private static long mac(long oui, int nodeIndex, int device) {
        return (oui << 24) | ((long) nodeIndex << 8) | device;
    }

    SimulatedNode node() {
        return node;
    }

    SimulatedWorkloads workloads() {
        return workloads;
    }

    void advance(double seconds) throws IOException {
        for (SimulatedDevice device : devices) {
            device.advance(seconds, false);
            device.writeState(tree);
        }
        if (firmwareFatal != null) {
            firmwareFatal.advance(seconds);
        }
    }
}
