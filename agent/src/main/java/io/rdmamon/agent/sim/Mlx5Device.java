package io.rdmamon.agent.sim;

import io.rdmamon.protocol.rates.CounterGroup;

import java.io.IOException;
import java.util.List;
import java.util.random.RandomGenerator;


/**
 * A ConnectX (mlx5) device with one port, in RoCE mode (link layer Ethernet, a netdev with
 * {@code ethtool -S} statistics, PFC on the lossless priority, DCQCN congestion counters) or
 * InfiniBand mode (a LID, no netdev). File names, widths and group order follow docs/reference/sysfs-and-counters.md
 * §1, §2; docs/reference/ethtool-and-verbs.md §1.
 */
final class Mlx5Device implements SimulatedDevice {

    /** The adapters the simulated fleet carries. */
    enum Model {
        CONNECTX5_EX("MT4121", "16.35.3006", "MT_0000000009", LinkSpeed.EDR_4X),
        CONNECTX6("MT4123", "20.39.1002", "MT_0000000223", LinkSpeed.HDR_4X),
        CONNECTX7("MT4129", "28.39.1002", "MT_0000000838", LinkSpeed.NDR_4X);

        final String hcaType;
        final String firmware;
        final String boardId;
        final LinkSpeed speed;

        Model(String hcaType, String firmware, String boardId, LinkSpeed speed) {
            this.hcaType = hcaType;
            this.firmware = firmware;
            this.boardId = boardId;
            this.speed = speed;
        }
    }

    /** mlx5 reports a 255-entry GID table on Ethernet ports (the RoCE address table size). */
    private static final int ROCE_GID_TABLE_LENGTH = 255;
    private static final int IB_GID_TABLE_LENGTH = 8;
    /** RDMA path MTU (IBV_MTU_4096); packets are counted as payload bytes / MTU. */
    private static final double RDMA_MTU = 4096;
    private static final int NETDEV_MTU = 9000;
    /** Average RDMA message of a training collective: 64 KiB writes, some reads. */
    private static final double MESSAGE_BYTES = 65536;
    private static final double WRITE_SHARE = 0.85;
    private static final int TCP_PRIORITY = 0;

    /** link-degraded: the bad port drops once every FLAP_PERIOD seconds and stays down for FLAP_DOWN seconds. */
    static final double FLAP_PERIOD_SECONDS = 5;
    /** Simulated seconds (warm-up excluded) after which module-swap replaces the module and reboot-qos reboots. */
    static final double CHANGE_AT_SECONDS = 20;
    private static final double FLAP_DOWN_SECONDS = 1;
    /** pfc-storm: the stuck receiver lets through only a trickle of traffic. */
    private static final double STORM_THROUGHPUT = 0.02;
    /** pfc-storm: pause frames refreshed every ~80 µs keep the link paused. */
    private static final double STORM_PAUSE_FRAMES_PER_SECOND = 12_500;

    private final String name;
    private final String netdev;
    private final long mac;
    private final Model model;
    private final LinkSpeed speed;
    private final boolean roce;
    private final Scenario fault;
    private final int losslessPriority;
    private final int rdmaPriority;
    /** The RoCE port's QoS configuration; null on InfiniBand. */
    /** Replaced by the one a reboot leaves (reboot-qos); {@link #qosChanged} until the tree has it. */
    private SimulatedQos qos;
    private boolean qosChanged;
    private final int lid;
    private final int ipv4;
    private final RandomGenerator random;

    private final Utilisation txLoad;
    private final Utilisation rxLoad;
    private final Utilisation tcpLoad;
    private final Carry txPacketCarry = new Carry();
    private final Carry rxPacketCarry = new Carry();
    private final Carry tcpPacketCarry = new Carry();

    private final CounterSet pma = pmaCounters();
    private final CounterSet hw;
    private final CounterSet ethtool;

    /** Seconds since the simulation started (warm-up excluded); drives the link-flap schedule. */
    private double clock;
    private boolean linkUp = true;
    /** The netdev's carrier counters (RoCE): one down at driver load, one up when the link came up. */
    private long carrierDowns = 1;
    private long carrierUps = 1;
    /** The transceiver of a RoCE port; null on InfiniBand (no netdev to read it through). Replaced by module-swap. */
    private SimulatedOptic optic;

    private Mlx5Device(String name, String netdev, long mac, Model model, boolean roce, Scenario fault,
                       int losslessPriority, int rdmaPriority, SimulatedQos qos, int lid, int ipv4,
                       RandomGenerator random) {
        this.name = name;
        this.netdev = netdev;
        this.mac = mac;
        this.model = model;
        this.speed = fault == Scenario.LINK_DEGRADED ? model.speed.degraded() : model.speed;
        this.roce = roce;
        this.fault = fault;
        this.losslessPriority = losslessPriority;
        this.rdmaPriority = rdmaPriority;
        this.qos = qos;
        this.lid = lid;
        this.ipv4 = ipv4;
        this.random = random;
        this.txLoad = new Utilisation(random.nextDouble(0.3, 0.7), 0.15, 15);
        this.rxLoad = new Utilisation(random.nextDouble(0.3, 0.7), 0.15, 15);
        this.tcpLoad = new Utilisation(0.02, 0.01, 30);
        this.hw = hwCounters(roce);
        this.ethtool = roce ? ethtoolCounters(losslessPriority, qos.pfcOn()) : null;
        // the device index is the MAC's last byte (SimulatedHost.mac): a QSFP28 in the first cage, a QSFP-DD in the
        // next
        boolean cmis = (mac & 0xff) % 2 == 1;
        this.optic = roce ? new SimulatedOptic(cmis, String.format("MT%08X", mac & 0xffffffffL), speed.isPam4(),
                fault == Scenario.DIRTY_OPTIC, random.nextDouble(38, 48)) : null;
    }

    /**
     * A RoCE port configured as {@code qos} says (device, netdev, fault, lossless priority).
     *
     * @param ipv4 the netdev's address, for the IPv4-mapped GIDs
     */
    static Mlx5Device roce(long mac, Model model, int ipv4, SimulatedQos qos, RandomGenerator random) {
        // wrong-priority: the configuration is right but the traffic is not marked for it; the QoS faults: the
        // configuration sends the traffic elsewhere
        int rdmaPriority = qos.fault() == Scenario.WRONG_PRIORITY ? qos.wrongPriority() : qos.rdmaPriority();
        return new Mlx5Device(qos.device(), qos.netdev(), mac, model, true, qos.fault(), qos.lossless(), rdmaPriority,
                qos, 0, ipv4, random);
    }

    /** An InfiniBand port with LID {@code lid}; {@code mac} only seeds the GUID. */
    static Mlx5Device infiniband(String name, long mac, Model model, int lid, Scenario fault, RandomGenerator random) {
        return new Mlx5Device(name, null, mac, model, false, fault, -1, -1, null, lid, 0, random);
    }

    private static CounterSet pmaCounters() {
        // Extended group (mlx5 always advertises IB_PMA_CLASS_CAP_EXT_WIDTH): 64-bit data and packets;
        // the PortCounters error fields keep their narrow, saturating widths (CounterWidth.of).
        return new CounterSet(CounterGroup.PORT_COUNTERS)
                .define("symbol_error")
                .define("link_error_recovery")
                .define("link_downed")
                .define("port_rcv_errors")
                .define("port_rcv_remote_physical_errors")
                .define("port_rcv_switch_relay_errors")
                .define("port_xmit_discards")
                .define("port_xmit_constraint_errors")
                .define("port_rcv_constraint_errors")
                .define("local_link_integrity_errors")
                .define("excessive_buffer_overrun_errors")
                .define("VL15_dropped")
                .define("port_xmit_wait")
                // Held in octets; written divided by 4 as the kernel prints them (see writeState).
                .define("port_xmit_data")
                .define("port_rcv_data")
                .define("port_xmit_packets")
                .define("port_rcv_packets")
                .define("unicast_xmit_packets")
                .define("unicast_rcv_packets")
                .define("multicast_xmit_packets")
                .define("multicast_rcv_packets");
    }

    /** mlx5 Q counters count in 32 bits and wrap, as the collector assumes (CounterWidth.of); the rest are 64-bit. */
    private static CounterSet hwCounters(boolean roce) {
        CounterSet set = new CounterSet(CounterGroup.HW_COUNTERS);
        List.of("rx_write_requests", "rx_read_requests", "rx_atomic_requests", "rx_dct_connect", "out_of_buffer",
                "out_of_sequence",
                "duplicate_request", "rnr_nak_retry_err", "packet_seq_err", "implied_nak_seq_err", "local_ack_timeout_err",
                "resp_local_length_error", "resp_cqe_error", "req_cqe_error", "req_remote_invalid_request",
                "req_remote_access_errors", "resp_remote_access_errors", "resp_cqe_flush_error", "req_cqe_flush_error",
                "req_transport_retries_exceeded", "req_rnr_retries_exceeded").forEach(set::define);
        if (roce) {
            // roce_accl, congestion (DCQCN) and ext_ppcnt groups exist only on Ethernet ports.
            List.of("roce_adp_retrans", "roce_adp_retrans_to", "roce_slow_restart", "roce_slow_restart_cnps",
                    "roce_slow_restart_trans",
                    "rp_cnp_ignored", "rp_cnp_handled", "np_ecn_marked_roce_packets", "np_cnp_sent",
                    "rx_icrc_encapsulated").forEach(set::define);
        }
        return set;
    }

    /**
     * mlx5e stats groups in kernel order (docs/reference/ethtool-and-verbs.md §1.1), the subset a monitor cares about;
     * the pause counters only
     * while PFC is on ({@code pfcOn}), as mlx5 lists them.
     */
    private static CounterSet ethtoolCounters(int losslessPriority, boolean pfcOn) {
        CounterSet set = new CounterSet(CounterGroup.ETHTOOL);
        // sw: the netdev's own rings (non-RDMA traffic only)
        List.of("rx_packets", "rx_bytes", "tx_packets", "tx_bytes").forEach(set::define);
        // qcnt
        List.of("rx_out_of_buffer", "rx_if_down_packets").forEach(set::define);
        // vport
        for (String cast : List.of("unicast", "multicast", "broadcast")) {
            for (String dir : List.of("rx", "tx")) {
                set.define(dir + "_vport_" + cast + "_packets").define(dir + "_vport_" + cast + "_bytes");
            }
        }
        for (String cast : List.of("unicast", "multicast")) {
            for (String dir : List.of("rx", "tx")) {
                set.define(dir + "_vport_rdma_" + cast + "_packets").define(dir + "_vport_rdma_" + cast + "_bytes");
            }
        }
        // 802_3, 2863, phy
        List.of("tx_packets_phy", "rx_packets_phy", "rx_crc_errors_phy", "tx_bytes_phy", "rx_bytes_phy",
                "tx_multicast_phy", "tx_broadcast_phy", "rx_multicast_phy", "rx_broadcast_phy",
                "rx_in_range_len_errors_phy", "rx_out_of_range_len_phy", "rx_oversize_pkts_phy", "rx_symbol_err_phy",
                "tx_mac_control_phy", "rx_mac_control_phy", "rx_unsupported_op_phy", "rx_pause_ctrl_phy",
                "tx_pause_ctrl_phy",
                "rx_discards_phy", "tx_discards_phy", "tx_errors_phy",
                "link_down_events_phy", "rx_pcs_symbol_err_phy", "rx_corrected_bits_phy").forEach(set::define);
        // per_prio traffic, prio-major
        for (int prio = 0; prio < 8; prio++) {
            set.define(prio(prio, "rx", "bytes")).define(prio(prio, "rx", "packets")).define(prio(prio, "rx", "discards"))
                    .define(prio(prio, "tx", "bytes")).define(prio(prio, "tx", "packets"));
        }
        // per_prio PFC: only for PFC-enabled priorities, then the stall detector
        if (pfcOn) {
            set.define(prio(losslessPriority, "rx", "pause")).define(prio(losslessPriority, "rx", "pause_duration"))
                    .define(prio(losslessPriority, "tx", "pause")).define(prio(losslessPriority, "tx", "pause_duration"))
                    .define(prio(losslessPriority, "rx", "pause_transition"));
        }
        set.define("tx_pause_storm_warning_events").define("tx_pause_storm_error_events");
        return set;
    }

    private static String prio(int priority, String direction, String what) {
        return direction + "_prio" + priority + "_" + what;
    }

    private String portDir() {
        return "sys/class/infiniband/" + name + "/ports/1/";
    }

    private long guid() {
        return Addresses.mellanoxGuid(mac);
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public String netdev() {
        return netdev;
    }

    @Override
    public void writeLayout(HostTree tree) throws IOException {
        String device = "sys/class/infiniband/" + name + "/";
        writePciFunction(tree, device);
        tree.write(device + "node_type", "1: CA\n");
        tree.write(device + "node_guid", Addresses.guidText(guid()) + "\n");
        tree.write(device + "sys_image_guid", Addresses.guidText(guid()) + "\n");
        tree.write(device + "fw_ver", model.firmware + "\n");
        tree.write(device + "hca_type", model.hcaType + "\n");
        tree.write(device + "board_id", model.boardId + "\n");
        String port = portDir();
        tree.write(port + "link_layer", roce ? "Ethernet\n" : "InfiniBand\n");
        tree.write(port + "lid", "0x" + Integer.toHexString(lid) + "\n");
        tree.write(port + "hw_counters/lifespan", "10\n");
        if (roce) {
            tree.directory(device + "device/net/" + netdev);
            tree.write("sys/class/net/" + netdev + "/address", Addresses.macText(mac) + "\n");
            tree.write("sys/class/net/" + netdev + "/mtu", NETDEV_MTU + "\n");
            // what `ethtool --show-fec` prints for an mlx5 port that negotiated RS FEC (RS(544,514) on PAM4 lanes)
            tree.write("ethtool/" + netdev + "/fec", "FEC parameters for " + netdev + ":\n"
                    + "Supported/Configured FEC encodings: Auto RS\nActive FEC encoding: RS\n");
            writeRoceGids(tree, port);
            qos.write(tree);
        } else {
            writeInfinibandGids(tree, port);
        }
    }

    /**
     * Indices 0/1: link-local GID as RoCE v1/v2; 2/3: the netdev's IPv4 address as v1/v2 (the
     * ordering mlx5 produces). gid-missing leaves 2/3 empty, as when the netdev has no IPv4 address.
     * Empty entries read as zeros and their gid_attrs are unreadable (EINVAL), so no attr file exists.
     */
    /**
     * The device's PCI function, linked from {@code <dev>/device} as the kernel does: an x16 card at its model's PCIe
     * generation, trained x8 under {@code pcie-x8}; AER counters at zero.
     */
    private void writePciFunction(HostTree tree, String device) throws IOException {
        String function = pciFunctionPath();
        String maxSpeed = model == Model.CONNECTX7 ? "32.0 GT/s PCIe" : "16.0 GT/s PCIe";
        tree.write(function + "/max_link_speed", maxSpeed + "\n");
        tree.write(function + "/current_link_speed", maxSpeed + "\n");
        tree.write(function + "/max_link_width", "16\n");
        tree.write(function + "/current_link_width", (fault == Scenario.PCIE_X8 ? 8 : 16) + "\n");
        tree.write(function + "/aer_dev_correctable", "RxErr 0\nBadTLP 0\nBadDLLP 0\nRollover 0\nTimeout 0\n"
                + "NonFatalErr 0\nCorrIntErr 0\nHeaderOF 0\nTOTAL_ERR_COR 0\n");
        tree.write(function + "/aer_dev_nonfatal", "TOTAL_ERR_NONFATAL 0\n");
        tree.write(function + "/aer_dev_fatal", "TOTAL_ERR_FATAL 0\n");
        tree.symlink(device + "device", function);
    }

    /**
     * The device's PCI function below the root: {@code sys/devices/pci0000:<bus-1>/0000:<bus-1>:01.0} (a root port per
     * device), then a switch's upstream and downstream port, then {@code 0000:<bus>:00.0}.
     */
    String pciFunctionPath() {
        int bus = pciBus();
        return String.format("%s/%s", switchPortPath(0), pciAddress());
    }

    /** The PCI function's address (bus/device/function), {@code 0000:3b:00.0}: how devlink and the kernel log name it. */
    String pciAddress() {
        return String.format("0000:%02x:00.0", pciBus());
    }

    /**
     * Downstream port {@code port} of the PCIe switch the device hangs off, as on HGX-class boards (root port, the
     * switch's upstream port, one downstream port per device): port 0 holds this device, others a neighbour such as
     * the GPU beside it ({@link SimulatedGpus}).
     */
    String switchPortPath(int port) {
        int bus = pciBus();
        return String.format("sys/devices/pci0000:%02x/0000:%02x:01.0/0000:%02x:00.0/0000:%02x:%02x.0", bus - 1, bus - 1,
                (bus + 0x10) & 0xff, (bus + 0x20) & 0xff, port);
    }

    private int pciBus() {
        return 0x3b + 0x40 * (int) (mac & 0x3) + (int) ((mac >> 8) & 0x0f);
    }

    private void writeRoceGids(HostTree tree, String port) throws IOException {
        String linkLocal = Addresses.linkLocalGid(Addresses.eui64(mac));
        writeGid(tree, port, 0, linkLocal, "IB/RoCE v1", netdev);
        writeGid(tree, port, 1, linkLocal, "RoCE v2", netdev);
        int next = 2;
        if (fault != Scenario.GID_MISSING) {
            String mapped = Addresses.ipv4MappedGid(ipv4);
            writeGid(tree, port, next++, mapped, "IB/RoCE v1", netdev);
            writeGid(tree, port, next++, mapped, "RoCE v2", netdev);
        }
        writeEmptyGids(tree, port, next, ROCE_GID_TABLE_LENGTH);
    }

    /** IB: GID 0 is the subnet prefix fe80:: plus the port GUID; no netdev behind it. */
    private void writeInfinibandGids(HostTree tree, String port) throws IOException {
        writeGid(tree, port, 0, Addresses.linkLocalGid(guid()), "IB/RoCE v1", null);
        writeEmptyGids(tree, port, 1, IB_GID_TABLE_LENGTH);
    }

    private static void writeGid(HostTree tree, String port, int index, String gid, String type, String ndev)
            throws IOException {
        tree.write(port + "gids/" + index, gid + "\n");
        tree.write(port + "gid_attrs/types/" + index, type + "\n");
        if (ndev != null) {
            tree.write(port + "gid_attrs/ndevs/" + index, ndev + "\n");
        }
    }

    private static void writeEmptyGids(HostTree tree, String port, int from, int tableLength) throws IOException {
        for (int index = from; index < tableLength; index++) {
            tree.write(port + "gids/" + index, Addresses.emptyGidText() + "\n");
        }
    }

    @Override
    public void advance(double seconds, boolean warmUp) {
        boolean events = !warmUp;
        boolean storming = events && fault == Scenario.PFC_STORM;
        boolean flapping = events && fault == Scenario.LINK_DEGRADED;
        long flaps = 0;
        double upFraction = 1;
        if (events) {
            if (flapping) {
                flaps = (long) Math.floor((clock + seconds) / FLAP_PERIOD_SECONDS) - (long) Math.floor(clock / FLAP_PERIOD_SECONDS);
                upFraction = Math.max(0, 1 - flaps * FLAP_DOWN_SECONDS / seconds);
                linkUp = (clock + seconds) % FLAP_PERIOD_SECONDS >= FLAP_DOWN_SECONDS;
            }
            if (clock < CHANGE_AT_SECONDS && clock + seconds >= CHANGE_AT_SECONDS) {
                change();
            }
            clock += seconds;
        }
        double throughput = upFraction * (storming ? STORM_THROUGHPUT : 1);
        double tx = txLoad.step(seconds, random) * throughput;
        double rx = rxLoad.step(seconds, random) * throughput;
        long txBytes = (long) (tx * speed.bytesPerSecond() * seconds);
        long rxBytes = (long) (rx * speed.bytesPerSecond() * seconds);
        long txPackets = txPacketCarry.take(txBytes / RDMA_MTU);
        long rxPackets = rxPacketCarry.take(rxBytes / RDMA_MTU);

        pma.add("port_xmit_data", txBytes);
        pma.add("port_rcv_data", rxBytes);
        pma.add("port_xmit_packets", txPackets);
        pma.add("port_rcv_packets", rxPackets);
        pma.add("unicast_xmit_packets", txPackets);
        pma.add("unicast_rcv_packets", rxPackets);
        hw.add("rx_write_requests", rxBytes * WRITE_SHARE / MESSAGE_BYTES);
        hw.add("rx_read_requests", txBytes * (1 - WRITE_SHARE) / MESSAGE_BYTES);

        if (roce) {
            advanceEthernet(seconds, upFraction, tx, rx, txBytes, rxBytes, txPackets, rxPackets, storming);
        } else {
            // IB credit waits (PortXmitWait ticks) grow with load; 32-bit and saturating.
            pma.add("port_xmit_wait", seconds * 2000 * tx * tx);
        }
        if (flapping) {
            pma.add("symbol_error", 40 * seconds);
            pma.add("port_rcv_errors", 3 * seconds);
            pma.add("link_error_recovery", flaps);
            pma.add("link_downed", flaps);
            if (roce) {
                ethtool.add("rx_symbol_err_phy", 40 * seconds);
                ethtool.add("rx_crc_errors_phy", 3 * seconds);
                ethtool.add("link_down_events_phy", flaps);
                carrierDowns += flaps;
                carrierUps += flaps;
            }
        }
        if (optic != null) {
            optic.advance(seconds, warmUp);
            // bits FEC corrected: the BER of the optic's worst lane on the bits the PHY received (idle symbols too)
            ethtool.add("rx_corrected_bits_phy", optic.preFecBer() * speed.bytesPerSecond() * 8 * seconds * upFraction);
        }
        // under a leaf whose uplink drops packets, the node's cross-leaf traffic retransmits all the time
        if (storming || flapping || events && fault == Scenario.TOR_UPLINK_LOSS) {
            addTransportLoss(seconds);
        }
        if (storming) {
            // The host is not draining its receive queues: that is what started the storm.
            hw.add("out_of_buffer", 200 * seconds);
        }
    }

    /** Retransmission and sequence-error counters that lost packets leave behind (rule transport_loss). */
    private void addTransportLoss(double seconds) {
        hw.add("out_of_sequence", 25 * seconds);
        hw.add("packet_seq_err", 6 * seconds);
        hw.add("implied_nak_seq_err", 3 * seconds);
        hw.add("duplicate_request", 10 * seconds);
        hw.add("local_ack_timeout_err", 2 * seconds);
        hw.add("req_transport_retries_exceeded", 0.05 * seconds);
        if (roce) {
            hw.add("roce_adp_retrans", 5 * seconds);
            hw.add("roce_adp_retrans_to", 1 * seconds);
        }
    }

    private void advanceEthernet(double seconds, double upFraction, double tx, double rx, long txBytes, long rxBytes,
                                 long txPackets, long rxPackets, boolean storming) {
        // Non-RDMA traffic (TCP: checkpoints, control plane) rides priority 0 through the netdev's rings;
        // a PFC storm on the lossless priority does not stop it.
        double tcpShare = tcpLoad.step(seconds, random) * upFraction;
        long tcpTxBytes = (long) (tcpShare * speed.bytesPerSecond() * seconds);
        long tcpRxBytes = (long) (tcpTxBytes * 1.1);
        long tcpTxPackets = tcpPacketCarry.take(tcpTxBytes / (double) NETDEV_MTU);
        long tcpRxPackets = (long) (tcpTxPackets * 1.1);

        ethtool.add("tx_bytes", tcpTxBytes);
        ethtool.add("tx_packets", tcpTxPackets);
        ethtool.add("rx_bytes", tcpRxBytes);
        ethtool.add("rx_packets", tcpRxPackets);
        ethtool.add("tx_vport_unicast_bytes", tcpTxBytes);
        ethtool.add("tx_vport_unicast_packets", tcpTxPackets);
        ethtool.add("rx_vport_unicast_bytes", tcpRxBytes);
        ethtool.add("rx_vport_unicast_packets", tcpRxPackets);
        // The vport "rdma" counters are what the PMA data counters are computed from (mlx5 mad.c).
        ethtool.add("tx_vport_rdma_unicast_bytes", txBytes);
        ethtool.add("tx_vport_rdma_unicast_packets", txPackets);
        ethtool.add("rx_vport_rdma_unicast_bytes", rxBytes);
        ethtool.add("rx_vport_rdma_unicast_packets", rxPackets);
        ethtool.add("tx_bytes_phy", txBytes + tcpTxBytes);
        ethtool.add("tx_packets_phy", txPackets + tcpTxPackets);
        ethtool.add("rx_bytes_phy", rxBytes + tcpRxBytes);
        ethtool.add("rx_packets_phy", rxPackets + tcpRxPackets);

        ethtool.add(prio(rdmaPriority, "tx", "bytes"), txBytes);
        ethtool.add(prio(rdmaPriority, "tx", "packets"), txPackets);
        ethtool.add(prio(rdmaPriority, "rx", "bytes"), rxBytes);
        ethtool.add(prio(rdmaPriority, "rx", "packets"), rxPackets);
        ethtool.add(prio(TCP_PRIORITY, "tx", "bytes"), tcpTxBytes);
        ethtool.add(prio(TCP_PRIORITY, "tx", "packets"), tcpTxPackets);
        ethtool.add(prio(TCP_PRIORITY, "rx", "bytes"), tcpRxBytes);
        ethtool.add(prio(TCP_PRIORITY, "rx", "packets"), tcpRxPackets);
        if (rdmaPriority != losslessPriority || !qos.pfcOn()) {
            // A lossy priority drops under incast instead of pausing.
            ethtool.add(prio(rdmaPriority, "rx", "discards"), rxPackets * 2e-6 * rx);
        }

        advancePfc(seconds, tx, rx, storming);
        advanceCongestion(tx, rx, txPackets, rxPackets);
    }

    /**
     * Pause frames on the lossless priority. rx pauses = the switch pausing us (we wait to transmit,
     * hence port_xmit_wait); tx pauses = us pausing the switch when our receive buffer fills.
     */
    private void advancePfc(double seconds, double tx, double rx, boolean storming) {
        if (!qos.pfcOn()) {
            // no PFC anywhere: no pause frames, no pause counters
            return;
        }
        boolean losslessCarriesRdma = rdmaPriority == losslessPriority;
        double losslessTx = losslessCarriesRdma ? tx : 0;
        double losslessRx = losslessCarriesRdma ? rx : 0;
        double rxFrames;
        double rxMicros;
        double txFrames;
        double txMicros;
        if (fault == Scenario.ECN_OFF) {
            // Without DCQCN the senders never slow down; PFC is the only brake and it is always on.
            rxFrames = 2500 * (0.3 + losslessTx) * seconds;
            txFrames = 1500 * (0.3 + losslessRx) * seconds;
            rxMicros = rxFrames * 25;
            txMicros = txFrames * 25;
        } else {
            // Healthy DCQCN keeps pauses rare, short and proportional to load.
            rxFrames = 400 * Math.pow(losslessTx, 3) * seconds;
            txFrames = 200 * Math.pow(losslessRx, 3) * seconds;
            rxMicros = rxFrames * 3;
            txMicros = txFrames * 3;
        }
        if (storming) {
            txFrames = STORM_PAUSE_FRAMES_PER_SECOND * seconds;
            txMicros = seconds * 1e6 * (0.97 + 0.025 * random.nextDouble());
            ethtool.add("tx_pause_storm_warning_events", 0.5 * seconds);
            ethtool.add("tx_pause_storm_error_events", 0.2 * seconds);
        }
        int lossless = losslessPriority;
        ethtool.add(prio(lossless, "rx", "pause"), rxFrames);
        ethtool.add(prio(lossless, "rx", "pause_duration"), rxMicros);
        ethtool.add(prio(lossless, "rx", "pause_transition"), rxFrames * 0.5);
        ethtool.add(prio(lossless, "tx", "pause"), txFrames);
        ethtool.add(prio(lossless, "tx", "pause_duration"), txMicros);
        // PFC frames are MAC control frames.
        ethtool.add("rx_mac_control_phy", rxFrames);
        ethtool.add("tx_mac_control_phy", txFrames);
        pma.add("port_xmit_wait", rxMicros);
    }

    /**
     * DCQCN: as notification point we see ECN-marked packets and answer with CNPs; as reaction point
     * we receive CNPs for our own traffic and slow down. rp_cnp_ignored stays flat (CC is enabled).
     */
    private void advanceCongestion(double tx, double rx, long txPackets, long rxPackets) {
        if (fault == Scenario.ECN_OFF) {
            return;
        }
        double marked = rxPackets * 0.004 * rx * rx;
        hw.add("np_ecn_marked_roce_packets", marked);
        hw.add("np_cnp_sent", marked * 0.8);
        hw.add("rp_cnp_handled", txPackets * 0.003 * tx * tx);
    }

    /** The one-off change of the timed scenarios: another module in the cage, or a reboot that lost the QoS. */
    private void change() {
        if (fault == Scenario.MODULE_SWAP && optic != null) {
            optic = optic.replacedBy(String.format("MT%08X", ~mac & 0xffffffffL));
        } else if (fault == Scenario.REBOOT_QOS && roce) {
            // the link went down and up with the host (the simulated counters go on from where they were, so the
            // collector sees the flap rather than a new baseline)
            carrierDowns++;
            carrierUps++;
            pma.add("link_downed", 1);
            qos = new SimulatedQos(qos.device(), qos.netdev(), Scenario.PFC_LOST, qos.lossless(), qos.wrongPriority(),
                    qos.roceDscp(), qos.ofed(), qos.pairsWithBlank());
            qosChanged = true;
        }
    }

    @Override
    public void writeState(HostTree tree) throws IOException {
        if (qosChanged) {
            qos.write(tree);
            qosChanged = false;
        }
        String port = portDir();
        tree.write(port + "state", linkUp ? "4: ACTIVE\n" : "1: DOWN\n");
        // mlx5 RoCE reports Disabled while the netdev has no carrier; an IB port goes back to Polling.
        tree.write(port + "phys_state", linkUp ? "5: LinkUp\n" : roce ? "3: Disabled\n" : "2: Polling\n");
        tree.write(port + "rate", speed.rateText() + "\n");
        for (String counter : pma.names()) {
            long value = pma.value(counter);
            boolean octets = counter.equals("port_xmit_data") || counter.equals("port_rcv_data");
            // The kernel prints data counters as octets / 4 (mlx5: vport octets >> 2).
            tree.write(port + "counters/" + counter, CounterSet.sysfsValue(octets ? value >>> 2 : value));
        }
        for (String counter : hw.names()) {
            tree.write(port + "hw_counters/" + counter, CounterSet.sysfsValue(hw.value(counter)));
        }
        if (roce) {
            String net = "sys/class/net/" + netdev + "/";
            tree.write(net + "operstate", linkUp ? "up\n" : "down\n");
            // speed_show prints SPEED_UNKNOWN (-1) while there is no carrier.
            tree.write(net + "speed", (linkUp ? speed.megabitsPerSecond() : -1) + "\n");
            tree.write("ethtool/" + netdev + "/statistics", ethtool.ethtoolText());
            tree.write(net + "carrier_changes", (carrierDowns + carrierUps) + "\n");
            tree.write(net + "carrier_up_count", carrierUps + "\n");
            tree.write(net + "carrier_down_count", carrierDowns + "\n");
            tree.writeBytes("ethtool/" + netdev + "/module", optic.image());
        }
    }
}
