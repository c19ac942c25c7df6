package io.rdmamon.agent.sim;

import io.rdmamon.protocol.rates.CounterGroup;

import java.io.IOException;
import java.util.List;
import java.util.random.RandomGenerator;

/**
 * An Alibaba Cloud eRDMA device ({@code erdma_0}, docs/reference/sysfs-and-counters.md §3): node type RNIC, no
 * {@code counters/} (no process_mad), no hca_type/board_id, the 11 per-port hw counters, and a
 * virtio-net netdev that is NOT under {@code device/net/}: it is paired by MAC, and node_guid is
 * the EUI-64 of that MAC.
 *
 * <p>The GID table is the iWARP-mode one (one entry: the MAC in bytes 0..5). gid_attrs for
 * iWARP-mode erdma are not verified (docs/reference/sysfs-and-counters.md §5), so none are written and readers see them
 * as
 * unreadable.
 */
final class ErdmaDevice implements SimulatedDevice {
    static final String DEVICE = "erdma_0";
    static final String NETDEV = "eth0";
    private static final String FIRMWARE = "0.2.0";
    /** eRDMA's path MTU fits the VPC's 1500-byte frames. */
    private static final double RDMA_MTU = 1024;
    private static final int NETDEV_MTU = 1500;
    /** Average work request size, for tx_reqs_cnt. */
    private static final double REQUEST_BYTES = 16384;
    /** The instance's bandwidth cap relative to the reported rate; traffic above it is dropped under erdma-ratelimit.
     * */
    private static final double BANDWIDTH_CAP = 0.6;

    private final long mac;
    private final LinkSpeed speed;
    private final Scenario fault;
    private final RandomGenerator random;
    private final Utilisation txLoad;
    private final Utilisation rxLoad;
    private final Utilisation tcpLoad = new Utilisation(0.03, 0.01, 30);
    private final Carry txPacketCarry = new Carry();
    private final Carry rxPacketCarry = new Carry();
    private final Carry tcpPacketCarry = new Carry();
    private final CounterSet hw = new CounterSet(CounterGroup.HW_COUNTERS);
    /** virtio_net's per-queue statistics (non-RDMA traffic only: eRDMA bypasses the virtio rings). */
    private final CounterSet ethtool = new CounterSet(CounterGroup.ETHTOOL);

    /**
     * @param speed {@link LinkSpeed#EDR_1X} when the netdev reports 25 Gb/s, {@link LinkSpeed#SDR_1X}
     *              when it reports no speed (virtio default)
     */
    ErdmaDevice(long mac, LinkSpeed speed, Scenario fault, RandomGenerator random) {
        this.mac = mac;
        this.speed = speed;
        this.fault = fault;
        this.random = random;
        // Under rate limiting the instance offers more than it is allowed to send.
        double offered = fault == Scenario.ERDMA_RATELIMIT ? 0.85 : 0.35;
        this.txLoad = new Utilisation(offered, 0.08, 20);
        this.rxLoad = new Utilisation(offered, 0.08, 20);
        List.of("tx_reqs_cnt", "tx_packets_cnt", "tx_bytes_cnt", "tx_disable_drop_cnt", "tx_bps_limit_drop_cnt",
                "tx_pps_limit_drop_cnt", "rx_packets_cnt", "rx_bytes_cnt", "rx_disable_drop_cnt",
                "rx_bps_limit_drop_cnt", "rx_pps_limit_drop_cnt").forEach(hw::define);
        List.of("rx_queue_0_packets", "rx_queue_0_bytes", "rx_queue_0_drops", "rx_queue_0_kicks",
                "tx_queue_0_packets", "tx_queue_0_bytes", "tx_queue_0_kicks", "tx_queue_0_timeouts")
                .forEach(ethtool::define);
    }

    private static String portDir() {
        return "sys/class/infiniband/" + DEVICE + "/ports/1/";
    }

    @Override
    public String name() {
        return DEVICE;
    }

    @Override
    public String netdev() {
        return NETDEV;
    }

    @Override
    public void writeLayout(HostTree tree) throws IOException {
        String device = "sys/class/infiniband/" + DEVICE + "/";
        String guid = Addresses.guidText(Addresses.eui64(mac)) + "\n";
        tree.write(device + "node_type", "4: RNIC\n");
        tree.write(device + "node_guid", guid);
        tree.write(device + "sys_image_guid", guid);
        tree.write(device + "fw_ver", FIRMWARE + "\n");
        String port = portDir();
        tree.write(port + "link_layer", "Ethernet\n");
        tree.write(port + "lid", "0x0\n");
        tree.write(port + "gids/0", Addresses.iwarpGid(mac) + "\n");
        tree.write(port + "hw_counters/lifespan", "10\n");
        String net = "sys/class/net/" + NETDEV + "/";
        tree.write(net + "address", Addresses.macText(mac) + "\n");
        tree.write(net + "mtu", NETDEV_MTU + "\n");
    }

    @Override
    public void advance(double seconds, boolean warmUp) {
        double lineRate = speed.bytesPerSecond() * seconds;
        double offeredTx = txLoad.step(seconds, random);
        double offeredRx = rxLoad.step(seconds, random);
        boolean limited = !warmUp && fault == Scenario.ERDMA_RATELIMIT;
        double tx = limited ? Math.min(offeredTx, BANDWIDTH_CAP) : offeredTx;
        double rx = limited ? Math.min(offeredRx, BANDWIDTH_CAP) : offeredRx;
        long txBytes = (long) (tx * lineRate);
        long rxBytes = (long) (rx * lineRate);
        long txPackets = txPacketCarry.take(txBytes / RDMA_MTU);
        long rxPackets = rxPacketCarry.take(rxBytes / RDMA_MTU);
        hw.add("tx_bytes_cnt", txBytes);
        hw.add("tx_packets_cnt", txPackets);
        hw.add("tx_reqs_cnt", txBytes / REQUEST_BYTES);
        hw.add("rx_bytes_cnt", rxBytes);
        hw.add("rx_packets_cnt", rxPackets);
        if (limited) {
            // What was offered above the cap is dropped (at least 5 % of line rate: bursts overshoot the
            // limiter within a second even when the average is under it), split between bps and pps limiters.
            double txExcessPackets = Math.max(0.05, offeredTx - tx) * lineRate / RDMA_MTU;
            double rxExcessPackets = Math.max(0.05, offeredRx - rx) * lineRate / RDMA_MTU;
            hw.add("tx_bps_limit_drop_cnt", txExcessPackets * 0.7);
            hw.add("tx_pps_limit_drop_cnt", txExcessPackets * 0.3);
            hw.add("rx_bps_limit_drop_cnt", rxExcessPackets * 0.7);
            hw.add("rx_pps_limit_drop_cnt", rxExcessPackets * 0.3);
        }
        long tcpBytes = (long) (tcpLoad.step(seconds, random) * lineRate);
        long tcpPackets = tcpPacketCarry.take(tcpBytes / (double) NETDEV_MTU);
        ethtool.add("tx_queue_0_bytes", tcpBytes);
        ethtool.add("tx_queue_0_packets", tcpPackets);
        ethtool.add("tx_queue_0_kicks", tcpPackets / 16.0);
        ethtool.add("rx_queue_0_bytes", tcpBytes);
        ethtool.add("rx_queue_0_packets", tcpPackets);
        ethtool.add("rx_queue_0_kicks", tcpPackets / 64.0);
    }

    @Override
    public void writeState(HostTree tree) throws IOException {
        String port = portDir();
        tree.write(port + "state", "4: ACTIVE\n");
        tree.write(port + "phys_state", "5: LinkUp\n");
        tree.write(port + "rate", speed.rateText() + "\n");
        for (String counter : hw.names()) {
            tree.write(port + "hw_counters/" + counter, CounterSet.sysfsValue(hw.value(counter)));
        }
        String net = "sys/class/net/" + NETDEV + "/";
        tree.write(net + "operstate", "up\n");
        // virtio-net without a configured speed reports SPEED_UNKNOWN, which is why erdma shows 2.5 Gb/s.
        tree.write(net + "speed", (speed == LinkSpeed.SDR_1X ? -1 : speed.megabitsPerSecond()) + "\n");
        tree.write("ethtool/" + NETDEV + "/statistics", ethtool.ethtoolText());
    }
}
