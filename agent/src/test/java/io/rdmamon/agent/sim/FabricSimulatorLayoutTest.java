package io.rdmamon.agent.sim;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static io.rdmamon.agent.sim.Trees.counter;
import static io.rdmamon.agent.sim.Trees.ethtool;
import static io.rdmamon.agent.sim.Trees.exists;
import static io.rdmamon.agent.sim.Trees.port;
import static io.rdmamon.agent.sim.Trees.text;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The host-root trees of a healthy 3-node fleet (RoCE, InfiniBand, eRDMA): layout and kernel formats. */
class FabricSimulatorLayoutTest {
    private static final String GUID = "[0-9a-f]{4}(:[0-9a-f]{4}){3}\n";
    private static final String GID = "[0-9a-f]{4}(:[0-9a-f]{4}){7}\n";

    @TempDir
    static Path base;
    static FabricSimulator simulator;
    static Path roce;
    static Path infiniband;
    static Path erdma;

    @BeforeAll
    static void createFleet() throws IOException {
        simulator = FabricSimulator.create(base, SimulationSpec.of(3, Scenario.HEALTHY));
        roce = root(NodeKind.ROCE_MLX5);
        infiniband = root(NodeKind.INFINIBAND_MLX5);
        erdma = root(NodeKind.ERDMA);
    }

    private static Path root(NodeKind kind) {
        return simulator.nodes().stream().filter(node -> node.kind() == kind).findFirst().orElseThrow().hostRoot();
    }

    @Test
    void nodesAreListedWithTheirHostRoots() {
        assertEquals(List.of("gpu-node-001", "gpu-node-002", "gpu-node-003"),
                simulator.nodes().stream().map(SimulatedNode::name).toList());
        simulator.nodes().forEach(node -> {
            assertEquals(base.resolve(node.name()), node.hostRoot());
            assertEquals(Scenario.HEALTHY, node.fault());
        });
    }

    @Test
    void roceDeviceAndPortFilesUseKernelFormats() {
        Path device = roce.resolve("sys/class/infiniband/mlx5_0");
        assertEquals("1: CA\n", text(device.resolve("node_type")));
        assertTrue(text(device.resolve("node_guid")).matches(GUID));
        assertEquals(text(device.resolve("node_guid")), text(device.resolve("sys_image_guid")));
        assertEquals("20.39.1002\n", text(device.resolve("fw_ver")));
        assertEquals("MT4123\n", text(device.resolve("hca_type")));
        assertTrue(text(device.resolve("board_id")).matches("MT_\\d{10}\n"));
        Path port = port(roce, "mlx5_0");
        assertEquals("4: ACTIVE\n", text(port.resolve("state")));
        assertEquals("5: LinkUp\n", text(port.resolve("phys_state")));
        assertEquals("200 Gb/sec (4X HDR)\n", text(port.resolve("rate")));
        assertEquals("Ethernet\n", text(port.resolve("link_layer")));
        assertEquals("0x0\n", text(port.resolve("lid")));
        assertEquals("10\n", text(port.resolve("hw_counters/lifespan")));
        assertTrue(Files.isDirectory(device.resolve("device/net/ens1f0np0")));
        assertTrue(Files.isDirectory(roce.resolve("sys/class/infiniband/mlx5_1/device/net/ens1f1np1")));
    }

    @Test
    void roceGidTableHasLinkLocalAndIpv4EntriesAsV1AndV2() {
        Path port = port(roce, "mlx5_0");
        String mac = text(roce.resolve("sys/class/net/ens1f0np0/address")).strip();
        assertEquals("fe80:0000:0000:0000:" + Eui64.of(mac) + "\n", text(port.resolve("gids/0")));
        assertEquals(text(port.resolve("gids/0")), text(port.resolve("gids/1")));
        // node 1, device 0 → 10.1.0.1
        assertEquals("0000:0000:0000:0000:0000:ffff:0a01:0001\n", text(port.resolve("gids/3")));
        assertEquals(List.of("IB/RoCE v1\n", "RoCE v2\n", "IB/RoCE v1\n", "RoCE v2\n"),
                Stream.of(0, 1, 2, 3).map(i -> text(port.resolve("gid_attrs/types/" + i))).toList());
        assertEquals("ens1f0np0\n", text(port.resolve("gid_attrs/ndevs/3")));
        // Empty entries read as zeros; their attributes are unreadable, so absent.
        assertEquals("0000:0000:0000:0000:0000:0000:0000:0000\n", text(port.resolve("gids/254")));
        assertFalse(Files.exists(port.resolve("gids/255")));
        assertFalse(Files.exists(port.resolve("gid_attrs/types/4")));
        assertFalse(Files.exists(port.resolve("gid_attrs/ndevs/4")));
    }

    @Test
    void roceNetdevFiles() {
        Path net = roce.resolve("sys/class/net/ens1f0np0");
        assertTrue(text(net.resolve("address")).matches("0c:42:a1(:[0-9a-f]{2}){3}\n"));
        assertEquals("up\n", text(net.resolve("operstate")));
        assertEquals("9000\n", text(net.resolve("mtu")));
        assertEquals("200000\n", text(net.resolve("speed")));
    }

    @Test
    void ethtoolStatisticsFollowMlx5GroupOrderWithPauseCountersOnlyForTheLosslessPriority() {
        List<String> names = new ArrayList<>(ethtool(roce, "ens1f0np0").keySet());
        List<String> expectedOrder = List.of("rx_packets", "rx_vport_unicast_packets", "rx_vport_rdma_unicast_packets",
                "tx_vport_rdma_multicast_bytes", "tx_packets_phy", "link_down_events_phy", "rx_prio0_bytes",
                "tx_prio7_packets", "rx_prio3_pause", "tx_pause_storm_warning_events", "tx_pause_storm_error_events");
        List<Integer> positions = expectedOrder.stream().map(names::indexOf).toList();
        assertFalse(positions.contains(-1), () -> "missing one of " + expectedOrder);
        assertEquals(positions.stream().sorted().toList(), positions, "group order");

        int first = names.indexOf("rx_prio0_bytes");
        List<String> perPrio = new ArrayList<>();
        for (int prio = 0; prio < 8; prio++) {
            for (String name : List.of("rx_prio%d_bytes", "rx_prio%d_packets", "rx_prio%d_discards",
                    "tx_prio%d_bytes", "tx_prio%d_packets")) {
                perPrio.add(String.format(name, prio));
            }
        }
        assertEquals(perPrio, names.subList(first, first + 40));
        assertEquals(List.of("rx_prio3_pause", "rx_prio3_pause_duration", "tx_prio3_pause", "tx_prio3_pause_duration",
                "rx_prio3_pause_transition"), names.subList(first + 40, first + 45));
        assertEquals(Set.of("rx_prio3_pause", "tx_prio3_pause"),
                names.stream().filter(name -> name.matches("(rx|tx)_prio\\d_pause")).collect(Collectors.toSet()));
    }

    @Test
    void losslessPriorityIsConfigurable(@TempDir Path other) throws IOException {
        FabricSimulator prio5 = FabricSimulator.create(other, new SimulationSpec(1, Scenario.HEALTHY, 1, 5));
        Map<String, Long> stats = ethtool(prio5.nodes().get(0).hostRoot(), "ens1f0np0");
        assertTrue(stats.containsKey("rx_prio5_pause_duration"));
        assertFalse(stats.containsKey("rx_prio3_pause"));
        prio5.advance(Duration.ofSeconds(2));
        assertTrue(ethtool(prio5.nodes().get(0).hostRoot(), "ens1f0np0").get("tx_prio5_bytes") > stats.get("tx_prio5_bytes"));
    }

    @Test
    void roceCountersDirectoryIsTheExtendedPmaGroup() throws IOException {
        Set<String> names = list(port(roce, "mlx5_0").resolve("counters"));
        assertEquals(Set.of("symbol_error", "link_error_recovery", "link_downed", "port_rcv_errors",
                "port_rcv_remote_physical_errors", "port_rcv_switch_relay_errors", "port_xmit_discards",
                "port_xmit_constraint_errors", "port_rcv_constraint_errors", "local_link_integrity_errors",
                "excessive_buffer_overrun_errors", "VL15_dropped", "port_xmit_wait", "port_xmit_data", "port_rcv_data",
                "port_xmit_packets", "port_rcv_packets", "unicast_xmit_packets", "unicast_rcv_packets",
                "multicast_xmit_packets", "multicast_rcv_packets"), names);
        assertTrue(list(port(roce, "mlx5_0").resolve("hw_counters")).containsAll(Set.of("rx_write_requests",
                "out_of_sequence", "np_ecn_marked_roce_packets", "np_cnp_sent", "rp_cnp_handled", "rp_cnp_ignored",
                "lifespan")));
    }

    @Test
    void infinibandNodeHasALidAndNoNetdev() throws IOException {
        Path device = infiniband.resolve("sys/class/infiniband/mlx5_0");
        Path port = port(infiniband, "mlx5_0");
        assertEquals("InfiniBand\n", text(port.resolve("link_layer")));
        assertEquals("400 Gb/sec (4X NDR)\n", text(port.resolve("rate")));
        assertTrue(text(port.resolve("lid")).matches("0x[1-9a-f][0-9a-f]*\n"));
        assertNotEquals(text(port.resolve("lid")), text(port(infiniband, "mlx5_1").resolve("lid")));
        String guid = text(device.resolve("node_guid")).strip();
        assertEquals("fe80:0000:0000:0000:" + guid + "\n", text(port.resolve("gids/0")));
        assertFalse(Files.exists(device.resolve("device/net")));
        assertFalse(exists(infiniband, "sys/class/net"));
        assertFalse(exists(infiniband, "ethtool"));
        assertFalse(list(port.resolve("hw_counters")).contains("np_cnp_sent"), "no RoCE congestion counters on IB");
    }

    @Test
    void erdmaNodeIsAnRnicWithoutPmaCountersFoundByMac() throws IOException {
        Path device = erdma.resolve("sys/class/infiniband/erdma_0");
        Path port = port(erdma, "erdma_0");
        assertEquals("4: RNIC\n", text(device.resolve("node_type")));
        assertFalse(Files.exists(device.resolve("hca_type")));
        assertFalse(Files.exists(device.resolve("board_id")));
        assertFalse(Files.exists(port.resolve("counters")));
        assertFalse(Files.exists(device.resolve("device/net")));
        assertEquals(Set.of("tx_reqs_cnt", "tx_packets_cnt", "tx_bytes_cnt", "tx_disable_drop_cnt",
                "tx_bps_limit_drop_cnt", "tx_pps_limit_drop_cnt", "rx_packets_cnt", "rx_bytes_cnt",
                "rx_disable_drop_cnt", "rx_bps_limit_drop_cnt", "rx_pps_limit_drop_cnt", "lifespan"),
                list(port.resolve("hw_counters")));
        assertEquals("25 Gb/sec (1X EDR)\n", text(port.resolve("rate")));
        assertTrue(text(port.resolve("gids/0")).matches(GID));

        String mac = text(erdma.resolve("sys/class/net/eth0/address")).strip();
        assertTrue(mac.startsWith("00:16:3e:"), mac);
        assertEquals(Eui64.of(mac) + "\n", text(device.resolve("node_guid")));
        assertTrue(ethtool(erdma, "eth0").containsKey("tx_queue_0_bytes"));
    }

    @Test
    void nothingButTheScratchDirectoryLivesOutsideTheHostRootLayout() throws IOException {
        // docs/architecture.md "Host root": sys/, ethtool/, the dcb -j captures, etc/nccl.conf, the workloads'
        // proc/<pid>/ and (GPU nodes)
        // proc/cmdline and proc/driver/nvidia/version, the lldpctl -f json captures
        assertEquals(Set.of("sys", "ethtool", "dcb", "etc", "proc", "lldp", HostTree.SCRATCH_DIR), list(roce));
        assertEquals(Set.of(), list(roce.resolve(HostTree.SCRATCH_DIR)));
    }

    @Test
    void dataCountersAreOctetsDividedByFourAndPlausibleForDaysOfUptime() {
        long xmitOctets = counter(roce, "mlx5_0", "port_xmit_data") * 4;
        long vport = ethtool(roce, "ens1f0np0").get("tx_vport_rdma_unicast_bytes");
        assertTrue(vport - xmitOctets >= 0 && vport - xmitOctets < 4, vport + " vs " + xmitOctets);
        // at least a day at 10% of 200 Gb/s
        assertTrue(vport > 86_400L * 2_500_000_000L, "uptime baseline " + vport);
    }

    @Test
    void refusesToWriteIntoANonEmptyNodeDirectory(@TempDir Path other) throws IOException {
        Files.createDirectories(other.resolve("gpu-node-001"));
        Files.writeString(other.resolve("gpu-node-001/keep.txt"), "mine");
        IOException error = assertThrows(IOException.class,
                () -> FabricSimulator.create(other, SimulationSpec.of(1, Scenario.HEALTHY)));
        assertTrue(error.getMessage().contains(other.resolve("gpu-node-001").toString()), error.getMessage());
        assertEquals("mine", text(other.resolve("gpu-node-001/keep.txt")));
    }

    @Test
    void closeKeepsTheTreesAndDeleteTreesRemovesOnlyThem(@TempDir Path other) throws IOException {
        Files.writeString(other.resolve("unrelated.txt"), "x");
        FabricSimulator fleet = FabricSimulator.create(other, SimulationSpec.of(2, Scenario.HEALTHY));
        fleet.close();
        assertTrue(Files.isDirectory(other.resolve("gpu-node-002/sys")));
        assertThrows(IllegalStateException.class, () -> fleet.advance(Duration.ofSeconds(1)));
        fleet.deleteTrees();
        assertEquals(Set.of("unrelated.txt"), list(other));
    }

    private static Set<String> list(Path dir) throws IOException {
        try (Stream<Path> entries = Files.list(dir)) {
            return entries.map(path -> path.getFileName().toString()).collect(Collectors.toSet());
        }
    }
}
